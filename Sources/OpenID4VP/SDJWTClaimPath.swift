// This file imports SDJWT and not DCQL, whose `ClaimPath` has the same name.
public import SDJWT

/// An SD-JWT claim path (RFC 9901), named apart from DCQL's claims path pointer, which this
/// module also uses (OpenID4VP 1.0 §7).
public typealias SDJWTClaimPath = ClaimPath
