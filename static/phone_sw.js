// The phone page's service worker (served as /p/sw.js, scope /p/): a notice the room sends (its
// title, its sentence and the player's page) is shown; a tap on it brings that page forward, or
// opens it. Nothing else: no request goes through it.
self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch (e) { notice = {}; }
  const page = typeof notice.url === "string" && notice.url.startsWith("/p/") ? notice.url : "/";
  event.waitUntil(self.registration.showNotification(String(notice.title || ""), {
    body: String(notice.body || ""), tag: String(notice.tag || ""), renotify: !!notice.tag, data: { url: page },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const page = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((client) => client.url === page);
    if (same) return same.focus();
    return self.clients.openWindow(page);
  })());
});
