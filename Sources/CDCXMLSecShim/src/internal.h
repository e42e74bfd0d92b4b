// Shared between the shim's source files; not part of the module's interface.
#ifndef DC_XMLSEC_INTERNAL_H
#define DC_XMLSEC_INTERNAL_H

/// Initialises libxml2 and xmlsec (OpenSSL backend) once, silencing their error output;
/// returns 1 when they are ready.
int dc_xmlsec_initialise(void);

#endif
