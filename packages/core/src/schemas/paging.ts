import { z } from 'zod';

/** Paged lists: the query's page and the answer's page. */

/** The page and page size of a paged admin list's query (`?page=2`). */
export const pageQueryShape = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    /** True when `total` is a lower bound ("1000+"): text queries count at most 1000 matches. */
    totalIsEstimate: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
