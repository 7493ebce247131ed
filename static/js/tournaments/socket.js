// A small reconnecting WebSocket for the tournament pages. The server only
// ever says "something changed"; the page then fetches fresh HTML, so a message lost by
// the channel layer (at most once) is made good by the next one or by the refresh on
// reconnect.
export function follow(path, onMessage, onOpen) {
  let delay = 500;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  function connect() {
    const socket = new WebSocket(`${scheme}://${location.host}${path}`);
    let ping;
    socket.addEventListener("open", () => {
      delay = 500;
      ping = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 20000);
      if (onOpen) onOpen();
    });
    socket.addEventListener("message", (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      if (data && data.type !== "pong") onMessage(data);
    });
    socket.addEventListener("close", () => {
      clearInterval(ping);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }
  connect();
}

export async function refresh(element, url) {
  const response = await fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
  if (response.ok) element.innerHTML = await response.text();
}
