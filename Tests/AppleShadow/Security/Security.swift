// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Shadow of Apple's Security framework (test only; see Tests/AppleShadow/README.md): the
// keychain, certificate, access-control and random-number calls this package makes, declared as
// https://developer.apple.com/documentation/security documents them. The CoreFoundation types
// they use (CFString, CFDictionary, CFTypeRef, CFError, CFAllocator) are declared here too,
// because the toolchain's own `CoreFoundation` module name is taken on Linux; on Apple platforms
// Security re-exports CoreFoundation, so `import Security` sees them there as well.
public import Foundation

// MARK: CoreFoundation (https://developer.apple.com/documentation/corefoundation)

/// https://developer.apple.com/documentation/corefoundation/cfstring (toll-free bridged to NSString)
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary (toll-free bridged to NSDictionary)
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cferror (toll-free bridged to NSError)
public typealias CFError = NSError
/// https://developer.apple.com/documentation/corefoundation/cfallocator
public final class CFAllocator {
  init() {}
}
/// https://developer.apple.com/documentation/corefoundation/kcfallocatordefault
nonisolated(unsafe) public let kCFAllocatorDefault: CFAllocator! = nil

// MARK: Result codes (https://developer.apple.com/documentation/security/security-framework-result-codes)

/// https://developer.apple.com/documentation/kernel/osstatus
public typealias OSStatus = Int32
/// https://developer.apple.com/documentation/security/errsecsuccess
public var errSecSuccess: OSStatus { 0 }
/// https://developer.apple.com/documentation/security/errsecitemnotfound
public var errSecItemNotFound: OSStatus { -25300 }
/// https://developer.apple.com/documentation/security/errsecduplicateitem
public var errSecDuplicateItem: OSStatus { -25299 }

// MARK: Certificates (https://developer.apple.com/documentation/security/certificates)

/// https://developer.apple.com/documentation/security/seccertificate — a CF type; its
/// sendability is not documented, so it is declared non-Sendable (the strictest form).
public final class SecCertificate {
  let der: Data
  init(der: Data) { self.der = der }
}

/// https://developer.apple.com/documentation/security/seccertificatecreatewithdata(_:_:)
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData)
  -> SecCertificate?
{
  let bytes = data as Data
  return bytes.first == 0x30 ? SecCertificate(der: bytes) : nil
}

/// https://developer.apple.com/documentation/security/seccertificatecopydata(_:)
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
  certificate.der as NSData
}

/// https://developer.apple.com/documentation/corefoundation/cfdata (toll-free bridged to NSData)
public typealias CFData = NSData

// MARK: Access control (https://developer.apple.com/documentation/security/secaccesscontrol)

/// https://developer.apple.com/documentation/security/secaccesscontrol — non-Sendable (undocumented).
public final class SecAccessControl {
  let flags: SecAccessControlCreateFlags
  init(flags: SecAccessControlCreateFlags) { self.flags = flags }
}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
  public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
  public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
  public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
  public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}

/// https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
public func SecAccessControlCreateWithFlags(
  _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
  SecAccessControl(flags: flags)
}

// MARK: Randomization (https://developer.apple.com/documentation/security/randomization-services)

/// https://developer.apple.com/documentation/security/secrandomref
public final class SecRandom {
  init() {}
}
/// https://developer.apple.com/documentation/security/ksecrandomdefault
nonisolated(unsafe) public let kSecRandomDefault: SecRandom? = nil

/// https://developer.apple.com/documentation/security/secrandomcopybytes(_:_:_:)
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer)
  -> Int32
{
  var generator = SystemRandomNumberGenerator()
  for index in 0..<count {
    bytes.storeBytes(
      of: UInt8.random(in: 0...255, using: &generator), toByteOffset: index, as: UInt8.self)
  }
  return errSecSuccess
}

// MARK: Keychain items (https://developer.apple.com/documentation/security/keychain-items)

/// https://developer.apple.com/documentation/security/ksecclass
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// https://developer.apple.com/documentation/security/ksecattrservice
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// https://developer.apple.com/documentation/security/ksecattraccount
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// https://developer.apple.com/documentation/security/ksecattraccessgroup
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// https://developer.apple.com/documentation/security/ksecattraccessible
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// https://developer.apple.com/documentation/security/ksecvaluedata
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// https://developer.apple.com/documentation/security/ksecreturndata
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// https://developer.apple.com/documentation/security/ksecmatchlimit
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?)
  -> OSStatus
{
  ShadowKeychain.current.add(attributes)
}

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?)
  -> OSStatus
{
  ShadowKeychain.current.copyMatching(query, result)
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
  ShadowKeychain.current.delete(query)
}

// MARK: Shadow only (not Apple API): the keychain the fakes above read and write.

/// An in-memory keychain of generic-password items keyed by (service, account, access group).
/// Tests run against `ShadowKeychain.current`, a task-local: give each test its own with
/// `ShadowKeychain.$current.withValue(ShadowKeychain()) { ... }`.
public final class ShadowKeychain: @unchecked Sendable {
  @TaskLocal public static var current = ShadowKeychain()

  private let lock = NSLock()
  private var items: [String: Data] = [:]

  public init() {}

  /// How many items the keychain holds.
  public var count: Int { lock.withLock { items.count } }

  private func key(_ query: NSDictionary) -> String {
    let parts = [kSecAttrService, kSecAttrAccount, kSecAttrAccessGroup].map {
      (query[$0 as String] as? String) ?? "-"
    }
    return parts.joined(separator: "\u{0}")
  }

  func add(_ attributes: NSDictionary) -> OSStatus {
    let key = key(attributes)
    guard let data = attributes[kSecValueData as String] as? Data else { return -50 }
    return lock.withLock {
      if items[key] != nil { return errSecDuplicateItem }
      items[key] = data
      return errSecSuccess
    }
  }

  func copyMatching(_ query: NSDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus
  {
    guard let data = lock.withLock({ items[key(query)] }) else { return errSecItemNotFound }
    result?.pointee = data as NSData
    return errSecSuccess
  }

  func delete(_ query: NSDictionary) -> OSStatus {
    lock.withLock {
      items.removeValue(forKey: key(query)) == nil ? errSecItemNotFound : errSecSuccess
    }
  }
}

extension SecCertificate {
  /// Shadow only: the DER bytes a certificate was made from.
  public var shadowDER: Data { der }
}
