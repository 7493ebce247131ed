// Live lists of tables: the server says "a table changed" over ws/lobby/, and every list
// on the page marked data-lobby-url (the lobby's tables, the home page's "Live now") is
// fetched again from its own URL. A static module: the site's CSP allows no inline script.
const lists = [...document.querySelectorAll("[data-lobby-url]")];
let delay = 500;
function refresh() {
  return Promise.all(lists.map((list) =>
    fetch(list.dataset.lobbyUrl, {headers: {"HX-Request": "true"}})
      .then((r) => r.ok ? r.text() : Promise.reject(r.status))
      .then((html) => { list.innerHTML = html; })
      .catch(() => {})));
}
let pending = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby/`);
  // Whatever changed before the server joined this socket to the lobby's group (since
  // the page was rendered, or while the connection was lost) was never announced to it:
  // read the lists once more as it opens. data-live says a list has been read since
  // and follows changes; it goes while the connection is down.
  ws.onopen = () => {
    delay = 500;
    refresh().then(() => { for (const list of lists) list.dataset.live = "1"; });
  };
  ws.onmessage = () => { clearTimeout(pending); pending = setTimeout(refresh, 150); };
  ws.onclose = () => {
    for (const list of lists) delete list.dataset.live;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 8000);
  };
}
if (lists.length) connect();
