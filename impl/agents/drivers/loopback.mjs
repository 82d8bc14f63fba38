// Preload for a Node server that has no host option (the Portkey gateway): every
// `net.Server.listen` binds 127.0.0.1, whatever address the server asked for, so a
// gateway under test is never reachable from another host.
// Used as `node --import .../loopback.mjs server.js`.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args[0] !== null && typeof args[0] === "object") {
    args[0] = { ...args[0], host: "127.0.0.1" };
  } else if (typeof args[0] === "number" || typeof args[0] === "string") {
    if (typeof args[1] === "string" || args[1] === undefined) args[1] = "127.0.0.1";
    else args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
