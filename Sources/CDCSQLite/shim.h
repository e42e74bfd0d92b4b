// The system SQLite 3 for the CredentialWallet store on Linux and Android. Apple platforms use
// the SDK's `SQLite3` module instead, so nothing but the header belongs here.
#ifndef DC_CSQLITE_SHIM_H
#define DC_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
