// The cursor walk of MCP's paginated lists (resources, templates, prompts): every page until the
// server gives no next cursor, stopping at a repeated cursor or a page limit, so a server whose
// cursors never end cannot hold a listing forever.
const MAX_PAGES = 100;

export type Paged<T> = (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>;

export async function allPages<T>(page: Paged<T>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await page(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}
