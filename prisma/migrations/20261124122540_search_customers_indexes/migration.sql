-- CreateIndex
CREATE INDEX "PixCharge_payerDocument_idx" ON "PixCharge"("payerDocument");

-- CreateIndex
CREATE INDEX "PixCharge_endToEndId_idx" ON "PixCharge"("endToEndId");

-- Names are searched case- and accent-insensitively by prefix (lib/search, lib/customers). pg_trgm and unaccent are
-- not available everywhere (PGlite), so a folding function and text_pattern_ops btree indexes serve `LIKE 'x%'`.
-- Prisma's schema does not describe expression indexes: they live only here.
CREATE FUNCTION search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN lower(translate(value,
    'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ',
    'AAAAAEEEEIIIIOOOOOUUUUCNaaaaaeeeeiiiiooooouuuucn'));

CREATE INDEX "PixCharge_debtorName_fold_idx" ON "PixCharge" (search_fold("debtorName") text_pattern_ops);
CREATE INDEX "PixCharge_payerName_fold_idx" ON "PixCharge" (search_fold("payerName") text_pattern_ops);
CREATE INDEX "PaymentLink_payerName_fold_idx" ON "PaymentLink" (search_fold("payerName") text_pattern_ops);
