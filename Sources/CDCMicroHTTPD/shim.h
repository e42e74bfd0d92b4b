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

/// `MHD_start_daemon` with an accept policy (its `cls` is the handler's), the options given as an
/// `MHD_OPTION_ARRAY` (ending with `MHD_OPTION_END`), and port 0 (the listen address comes from
/// `MHD_OPTION_SOCK_ADDR`).
static inline struct MHD_Daemon *dc_mhd_start(unsigned int flags,
                                              MHD_AcceptPolicyCallback accept_policy,
                                              MHD_AccessHandlerCallback handler,
                                              void *handler_cls,
                                              const struct MHD_OptionItem *options) {
  return MHD_start_daemon(flags, 0, accept_policy, handler_cls, handler, handler_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The socket context set in `MHD_OPTION_NOTIFY_CONNECTION` (`MHD_CONNECTION_INFO_SOCKET_CONTEXT`).
static inline void *dc_mhd_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

/// The connection's socket (`MHD_CONNECTION_INFO_CONNECTION_FD`), or -1.
static inline int dc_mhd_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

/// The client's address (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`), or NULL.
static inline const struct sockaddr *dc_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

/// The port the daemon's listen socket is bound to, or 0 when unknown.
static inline uint16_t dc_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

#endif
