// The service's lists come a page at a time (§7 G1, §11 C1); some answers need the whole list.

/** The service's largest page. */
export const LIST_PAGE_SIZE = 100

/** Every item of a list read `LIST_PAGE_SIZE` at a time: it ends at the first page not full. */
export async function everyPage<T>(fetchPage: (page: number) => Promise<T[]>): Promise<T[]> {
  const all: T[] = []
  for (let page = 1; ; page += 1) {
    const items = await fetchPage(page)
    all.push(...items)
    if (items.length < LIST_PAGE_SIZE) return all
  }
}
