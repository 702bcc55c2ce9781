export { AppConfig, InvalidConfig } from "./config.js"
export { DatabaseLive, makeServerLayer, ServeLive } from "./main.js"
export { HttpAppLive } from "./http/Server.js"
export { VERSION } from "./version.js"
