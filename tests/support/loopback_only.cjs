// Preload for test servers that listen on every interface: bind to 127.0.0.1 instead when the
// caller gave no host, so test traffic never leaves the machine.
const net = require("net");
const originalListen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  } else if (first && typeof first === "object" && first.port !== undefined && !first.host) {
    args[0] = { ...first, host: "127.0.0.1" };
  }
  return originalListen.apply(this, args);
};
