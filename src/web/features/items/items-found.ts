/**
 * Browse's result count. Spec: '{n} items found'; the server counts up to 1,000 matches and then says
 * so (`totalCapped`, issue 13), shown as '1,000+ items found'.
 */
export function itemsFound(total: number, capped: boolean): string {
  const n = `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
  return `${n} ${total === 1 && !capped ? 'item' : 'items'} found`;
}
