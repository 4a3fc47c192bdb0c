// Work a page does not need to show or answer a tap (the service worker's registration, its update
// prompt) waits until the page has loaded and the main thread is idle: on a slow phone it would
// otherwise run among the first scripts and hydration, where every long task delays the first tap
// (Total Blocking Time, decision 063). Within `timeoutMs` of load it runs even if the thread never idles.

export function afterLoadAndIdle(work: () => void, timeoutMs = 5000): void {
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(() => work(), { timeout: timeoutMs });
    } else {
      setTimeout(work, 1);
    }
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
