// GNU libmicrohttpd (Debian/Ubuntu `libmicrohttpd-dev`) for the HTTPServer module's development
// server. Swift cannot call C variadic functions, so the two this package needs are wrapped here
// with fixed arguments; everything else is libmicrohttpd's own API.
#ifndef DC_CMICROHTTPD_SHIM_H
#define DC_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// `MHD_start_daemon` with no accept policy, the options given as an `MHD_OPTION_ARRAY` (ending
/// with `MHD_OPTION_END`), and port 0 (the listen address comes from `MHD_OPTION_SOCK_ADDR`).
static inline struct MHD_Daemon *dc_mhd_start(unsigned int flags,
                                              MHD_AccessHandlerCallback handler,
                                              void *handler_cls,
                                              const struct MHD_OptionItem *options) {
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon's listen socket is bound to, or 0 when unknown.
static inline uint16_t dc_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

#endif
