-- A card payment is approved only when codigo is "0" AND mensagem is "Transacao autorizada" (spec 2.2, 7.4); rows
-- mirrored when codigo alone decided are re-classified from the answer they stored. Cancelled rows are left as they
-- are: the gateway accepted their cancel, so they were approved. The CardPayment triggers name the days touched, so
-- the overview's rollup recomputes them.
UPDATE "CardPayment"
   SET "isApproved" = false
 WHERE "isApproved"
   AND status <> 'CAN'
   AND ("responseCode" <> '0' OR "responseMessage" <> 'Transacao autorizada');
