-- The trace context of the request that created a charge: its webhook, a later separate request, joins that trace.
ALTER TABLE "PixCharge" ADD COLUMN "traceParent" TEXT;
