// This file imports DCQL and not SDJWT, whose `ClaimPath` has the same name.
public import DCQL

/// A DCQL claims path pointer (OpenID4VP 1.0 §7), named apart from the SD-JWT claim path.
public typealias DCQLClaimsPathPointer = ClaimPath
