/// The bounds the ETSI list readers (LoTE, TSL, LOTL) enforce before and while they parse
/// (docs/LIMITS.md, "Trusted lists").
package enum ETSIListLimits {
  /// The most bytes of one list. The largest national TSLs are a few megabytes.
  package static let maxListBytes = 8 << 20
  /// The most trusted entities (LoTE) or trust service providers (TSL) in one list.
  package static let maxEntities = 10_000
  /// The most services one entity or provider lists.
  package static let maxServicesPerEntity = 200
  /// The most certificates one digital identity (a service's, a pointer's) carries.
  package static let maxCertificatesPerIdentity = 50
  /// The most pointers to other lists (a LOTL points to about 30).
  package static let maxPointers = 500
  /// The deepest JSON nesting of a LoTE payload (the schema nests fewer than 10 levels).
  package static let maxJSONDepth = 32
}
