import { createLoader, createSerializer } from "nuqs/server";

import { createListParsers } from "@/lib/list/search-params";
import { ZDeliveryFilters } from "@/lib/webhooks/schemas";

// /webhooks/deliveries?event&outcome&resourceId&deliveryId&webhookId&from&to&page&cursor, on the server and
// in the filter form.
export const deliverySearchParams = createListParsers(ZDeliveryFilters.shape);
export const loadDeliverySearchParams = createLoader(deliverySearchParams);
export const serializeDeliverySearchParams = createSerializer(deliverySearchParams);
