// The live lobby (games/lobby.html): the server says "a table changed" over ws/lobby/;
// the list fragment is fetched again. A static module: the site's CSP allows no inline script.
const list = document.getElementById("lobby-list");
let delay = 500;
function refresh() {
  fetch(list.dataset.url, {headers: {"HX-Request": "true"}})
    .then((r) => r.ok ? r.text() : Promise.reject(r.status))
    .then((html) => { list.innerHTML = html; })
    .catch(() => {});
}
let pending = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby/`);
  ws.onopen = () => { delay = 500; };
  ws.onmessage = () => { clearTimeout(pending); pending = setTimeout(refresh, 150); };
  ws.onclose = () => { setTimeout(connect, delay); delay = Math.min(delay * 2, 8000); };
}
connect();
