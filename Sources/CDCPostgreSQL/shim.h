// libpq, PostgreSQL's C client library (Debian libpq-dev), for the servers' shared state
// (issue 31). Only the header belongs here; DCPostgreSQL is the one module that calls it.
#ifndef DC_CPOSTGRESQL_SHIM_H
#define DC_CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>

#endif
