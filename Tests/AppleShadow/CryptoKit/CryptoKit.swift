// Shadow of Apple's CryptoKit (test only; see Tests/AppleShadow/README.md): the subset that
// CryptoPrimitives' CryptoKit backend and KeychainKeyStore call, declared as
// https://developer.apple.com/documentation/cryptokit documents it. Declarations only: every body
// stops the test that reaches it (`shadowUnimplemented`); the shadow build type-checks the
// callers, it does not reimplement cryptography.
public import Foundation
public import LocalAuthentication
public import Security

@usableFromInline
func shadowUnimplemented(_ function: String = #function) -> Never {
  preconditionFailure("Apple shadow SDK: CryptoKit.\(function) is declared, not implemented")
}

/// https://developer.apple.com/documentation/cryptokit/digest
public protocol Digest: Hashable, ContiguousBytes, CustomStringConvertible, Sequence, Sendable
where Element == UInt8 {
  static var byteCount: Int { get }
}

/// https://developer.apple.com/documentation/cryptokit/hashfunction
public protocol HashFunction: Sendable {
  associatedtype Digest: CryptoKit.Digest
  static var byteCount: Int { get }
  static var blockByteCount: Int { get }
  init()
  mutating func update(bufferPointer: UnsafeRawBufferPointer)
  func finalize() -> Self.Digest
}

extension HashFunction {
  /// https://developer.apple.com/documentation/cryptokit/hashfunction/hash(data:)
  public static func hash<D: DataProtocol>(data: D) -> Self.Digest { shadowUnimplemented() }
  /// https://developer.apple.com/documentation/cryptokit/hashfunction/update(data:)
  public mutating func update<D: DataProtocol>(data: D) { shadowUnimplemented() }
}

/// A digest of one of the SHA-2 functions (SHA256Digest, SHA384Digest, SHA512Digest).
public protocol ShadowSHA2Digest: Digest {}
extension ShadowSHA2Digest {
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    shadowUnimplemented()
  }
  public func makeIterator() -> Array<UInt8>.Iterator { shadowUnimplemented() }
  public var description: String { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/sha256digest
public struct SHA256Digest: ShadowSHA2Digest {
  public static var byteCount: Int { 32 }
}

/// https://developer.apple.com/documentation/cryptokit/sha256
public struct SHA256: HashFunction {
  public static var byteCount: Int { 32 }
  public static var blockByteCount: Int { 64 }
  public init() {}
  public mutating func update(bufferPointer: UnsafeRawBufferPointer) { shadowUnimplemented() }
  public func finalize() -> SHA256Digest { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/sha384digest
public struct SHA384Digest: ShadowSHA2Digest {
  public static var byteCount: Int { 48 }
}

/// https://developer.apple.com/documentation/cryptokit/sha384
public struct SHA384: HashFunction {
  public static var byteCount: Int { 48 }
  public static var blockByteCount: Int { 128 }
  public init() {}
  public mutating func update(bufferPointer: UnsafeRawBufferPointer) { shadowUnimplemented() }
  public func finalize() -> SHA384Digest { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/sha512digest
public struct SHA512Digest: ShadowSHA2Digest {
  public static var byteCount: Int { 64 }
}

/// https://developer.apple.com/documentation/cryptokit/sha512
public struct SHA512: HashFunction {
  public static var byteCount: Int { 64 }
  public static var blockByteCount: Int { 128 }
  public init() {}
  public mutating func update(bufferPointer: UnsafeRawBufferPointer) { shadowUnimplemented() }
  public func finalize() -> SHA512Digest { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/symmetrickey
public struct SymmetricKey: ContiguousBytes, Sendable {
  public init<D: ContiguousBytes>(data: D) { shadowUnimplemented() }
  public init(size: SymmetricKeySize) { shadowUnimplemented() }
  public var bitCount: Int { shadowUnimplemented() }
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    shadowUnimplemented()
  }
}

/// https://developer.apple.com/documentation/cryptokit/symmetrickeysize
public struct SymmetricKeySize: Sendable {
  public let bitCount: Int
  public init(bitCount: Int) { self.bitCount = bitCount }
}

/// https://developer.apple.com/documentation/cryptokit/sharedsecret
public struct SharedSecret: ContiguousBytes, Sendable {
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    shadowUnimplemented()
  }
}

/// https://developer.apple.com/documentation/cryptokit/messageauthenticationcode
public protocol MessageAuthenticationCode: Hashable, ContiguousBytes, CustomStringConvertible,
  Sequence, Sendable
where Element == UInt8 {
  var byteCount: Int { get }
}

/// https://developer.apple.com/documentation/cryptokit/hashedauthenticationcode
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode {
  public var byteCount: Int { shadowUnimplemented() }
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    shadowUnimplemented()
  }
  public func makeIterator() -> Array<UInt8>.Iterator { shadowUnimplemented() }
  public var description: String { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/hmac
public struct HMAC<H: HashFunction>: Sendable {
  /// https://developer.apple.com/documentation/cryptokit/hmac/authenticationcode(for:using:)
  public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey)
    -> HashedAuthenticationCode<H>
  { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/hkdf
public struct HKDF<H: HashFunction>: Sendable {
  /// https://developer.apple.com/documentation/cryptokit/hkdf/expand(pseudorandomkey:info:outputbytecount:)
  public static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
    pseudoRandomKey prk: PRK, info: Info?, outputByteCount: Int
  ) -> SymmetricKey { shadowUnimplemented() }
}

/// https://developer.apple.com/documentation/cryptokit/aes
public enum AES {
  /// https://developer.apple.com/documentation/cryptokit/aes/gcm
  public enum GCM {
    /// https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce
    public struct Nonce: ContiguousBytes, Sequence, Sendable {
      public init() { shadowUnimplemented() }
      public init<D: DataProtocol>(data: D) throws { shadowUnimplemented() }
      public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        shadowUnimplemented()
      }
      public func makeIterator() -> Array<UInt8>.Iterator { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/aes/gcm/sealedbox
    public struct SealedBox: Sendable {
      public init<C: DataProtocol, T: DataProtocol>(nonce: AES.GCM.Nonce, ciphertext: C, tag: T)
        throws
      { shadowUnimplemented() }
      public init<D: DataProtocol>(combined: D) throws { shadowUnimplemented() }
      public var ciphertext: Data { shadowUnimplemented() }
      public var tag: Data { shadowUnimplemented() }
      public var nonce: AES.GCM.Nonce { shadowUnimplemented() }
      public var combined: Data? { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/aes/gcm/seal(_:using:nonce:authenticating:)
    public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
      _ message: Plaintext, using key: SymmetricKey, nonce: AES.GCM.Nonce? = nil,
      authenticating authenticatedData: AuthenticatedData
    ) throws -> AES.GCM.SealedBox { shadowUnimplemented() }

    /// https://developer.apple.com/documentation/cryptokit/aes/gcm/open(_:using:authenticating:)
    public static func open<AuthenticatedData: DataProtocol>(
      _ sealedBox: AES.GCM.SealedBox, using key: SymmetricKey,
      authenticating authenticatedData: AuthenticatedData
    ) throws -> Data { shadowUnimplemented() }
  }
}

/// https://developer.apple.com/documentation/cryptokit/cryptokiterror
public enum CryptoKitError: Error, Sendable {
  case incorrectKeySize
  case incorrectParameterSize
  case authenticationFailure
  case underlyingCoreCryptoError(error: Int32)
  case wrapFailure
  case unwrapFailure
  case invalidParameter
}

/// https://developer.apple.com/documentation/cryptokit/p256
public enum P256 {
  /// https://developer.apple.com/documentation/cryptokit/p256/signing
  public enum Signing {
    /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var compressedRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/isvalidsignature(_:for:)-*
      public func isValidSignature<D: Digest>(
        _ signature: P256.Signing.ECDSASignature, for digest: D
      )
        -> Bool
      { shadowUnimplemented() }
      public func isValidSignature<D: DataProtocol>(
        _ signature: P256.Signing.ECDSASignature, for data: D
      ) -> Bool { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var publicKey: P256.Signing.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/signature(for:)-*
      public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
        shadowUnimplemented()
      }
      public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
        shadowUnimplemented()
      }
    }

    /// https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature
    public struct ECDSASignature: ContiguousBytes, Sendable {
      public init<D: DataProtocol>(rawRepresentation: D) throws { shadowUnimplemented() }
      public init<D: DataProtocol>(derRepresentation: D) throws { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }
      public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        shadowUnimplemented()
      }
    }
  }

  /// https://developer.apple.com/documentation/cryptokit/p256/keyagreement
  public enum KeyAgreement {
    /// https://developer.apple.com/documentation/cryptokit/p256/keyagreement/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p256/keyagreement/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public var publicKey: P256.KeyAgreement.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p256/keyagreement/privatekey/sharedsecretfromkeyagreement(with:)
      public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey)
        throws -> SharedSecret
      { shadowUnimplemented() }
    }
  }
}

/// https://developer.apple.com/documentation/cryptokit/p384
public enum P384 {
  /// https://developer.apple.com/documentation/cryptokit/p384/signing
  public enum Signing {
    /// https://developer.apple.com/documentation/cryptokit/p384/signing/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var compressedRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p384/signing/publickey/isvalidsignature(_:for:)-*
      public func isValidSignature<D: Digest>(
        _ signature: P384.Signing.ECDSASignature, for digest: D
      )
        -> Bool
      { shadowUnimplemented() }
      public func isValidSignature<D: DataProtocol>(
        _ signature: P384.Signing.ECDSASignature, for data: D
      ) -> Bool { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p384/signing/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var publicKey: P384.Signing.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p384/signing/privatekey/signature(for:)-*
      public func signature<D: Digest>(for digest: D) throws -> P384.Signing.ECDSASignature {
        shadowUnimplemented()
      }
      public func signature<D: DataProtocol>(for data: D) throws -> P384.Signing.ECDSASignature {
        shadowUnimplemented()
      }
    }

    /// https://developer.apple.com/documentation/cryptokit/p384/signing/ecdsasignature
    public struct ECDSASignature: ContiguousBytes, Sendable {
      public init<D: DataProtocol>(rawRepresentation: D) throws { shadowUnimplemented() }
      public init<D: DataProtocol>(derRepresentation: D) throws { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }
      public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        shadowUnimplemented()
      }
    }
  }

  /// https://developer.apple.com/documentation/cryptokit/p384/keyagreement
  public enum KeyAgreement {
    /// https://developer.apple.com/documentation/cryptokit/p384/keyagreement/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p384/keyagreement/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public var publicKey: P384.KeyAgreement.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p384/keyagreement/privatekey/sharedsecretfromkeyagreement(with:)
      public func sharedSecretFromKeyAgreement(with publicKeyShare: P384.KeyAgreement.PublicKey)
        throws -> SharedSecret
      { shadowUnimplemented() }
    }
  }
}

/// https://developer.apple.com/documentation/cryptokit/p521
public enum P521 {
  /// https://developer.apple.com/documentation/cryptokit/p521/signing
  public enum Signing {
    /// https://developer.apple.com/documentation/cryptokit/p521/signing/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var compressedRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p521/signing/publickey/isvalidsignature(_:for:)-*
      public func isValidSignature<D: Digest>(
        _ signature: P521.Signing.ECDSASignature, for digest: D
      )
        -> Bool
      { shadowUnimplemented() }
      public func isValidSignature<D: DataProtocol>(
        _ signature: P521.Signing.ECDSASignature, for data: D
      ) -> Bool { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p521/signing/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public init<Bytes: RandomAccessCollection>(derRepresentation: Bytes) throws
      where Bytes.Element == UInt8 { shadowUnimplemented() }
      public var publicKey: P521.Signing.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p521/signing/privatekey/signature(for:)-*
      public func signature<D: Digest>(for digest: D) throws -> P521.Signing.ECDSASignature {
        shadowUnimplemented()
      }
      public func signature<D: DataProtocol>(for data: D) throws -> P521.Signing.ECDSASignature {
        shadowUnimplemented()
      }
    }

    /// https://developer.apple.com/documentation/cryptokit/p521/signing/ecdsasignature
    public struct ECDSASignature: ContiguousBytes, Sendable {
      public init<D: DataProtocol>(rawRepresentation: D) throws { shadowUnimplemented() }
      public init<D: DataProtocol>(derRepresentation: D) throws { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var derRepresentation: Data { shadowUnimplemented() }
      public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        shadowUnimplemented()
      }
    }
  }

  /// https://developer.apple.com/documentation/cryptokit/p521/keyagreement
  public enum KeyAgreement {
    /// https://developer.apple.com/documentation/cryptokit/p521/keyagreement/publickey
    public struct PublicKey: Sendable {
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
        shadowUnimplemented()
      }
      public var rawRepresentation: Data { shadowUnimplemented() }
      public var x963Representation: Data { shadowUnimplemented() }
    }

    /// https://developer.apple.com/documentation/cryptokit/p521/keyagreement/privatekey
    public struct PrivateKey: Sendable {
      public init(compactRepresentable: Bool = true) { shadowUnimplemented() }
      public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { shadowUnimplemented() }
      public var publicKey: P521.KeyAgreement.PublicKey { shadowUnimplemented() }
      public var rawRepresentation: Data { shadowUnimplemented() }

      /// https://developer.apple.com/documentation/cryptokit/p521/keyagreement/privatekey/sharedsecretfromkeyagreement(with:)
      public func sharedSecretFromKeyAgreement(with publicKeyShare: P521.KeyAgreement.PublicKey)
        throws -> SharedSecret
      { shadowUnimplemented() }
    }
  }
}

/// https://developer.apple.com/documentation/cryptokit/secureenclave
public enum SecureEnclave {
  /// https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
  ///
  /// Shadow: `ShadowSecureEnclave.isAvailable` (false unless a test says otherwise).
  public static var isAvailable: Bool { ShadowSecureEnclave.isAvailable }

  /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256
  public enum P256 {
    /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing
    public enum Signing {
      /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
      ///
      /// Apple does not state that this type is `Sendable`; declared non-Sendable (strictest).
      public struct PrivateKey {
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
        public init(
          compactRepresentable: Bool = true, accessControl: SecAccessControl,
          authenticationContext: LAContext? = nil
        ) throws { shadowUnimplemented() }
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
          shadowUnimplemented()
        }
        public var dataRepresentation: Data { shadowUnimplemented() }
        public var publicKey: CryptoKit.P256.Signing.PublicKey { shadowUnimplemented() }
        /// https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/signature(for:)-*
        public func signature<D: DataProtocol>(for data: D) throws
          -> CryptoKit.P256.Signing.ECDSASignature
        { shadowUnimplemented() }
        public func signature<D: Digest>(for digest: D) throws
          -> CryptoKit.P256.Signing.ECDSASignature
        { shadowUnimplemented() }
      }
    }
  }
}

/// Shadow only (not Apple API): whether `SecureEnclave.isAvailable`.
public enum ShadowSecureEnclave {
  @TaskLocal public static var isAvailable = false
}
