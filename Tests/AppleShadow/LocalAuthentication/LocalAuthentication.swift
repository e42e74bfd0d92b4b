// Shadow of Apple's LocalAuthentication (test only; see Tests/AppleShadow/README.md), declared as
// https://developer.apple.com/documentation/localauthentication documents it.
public import Foundation

/// https://developer.apple.com/documentation/localauthentication/lapolicy
public enum LAPolicy: Int, Sendable {
  /// https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithbiometrics
  case deviceOwnerAuthenticationWithBiometrics = 1
  /// https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthentication
  case deviceOwnerAuthentication = 2
  // `deviceOwnerAuthenticationWithWatch` and `...WithBiometricsOrWatch` are macOS only on Apple's
  // pages: not declared in this iOS shadow.
}

/// https://developer.apple.com/documentation/localauthentication/laerror — a bridged NSError
/// struct with a `Code`.
public struct LAError: Error, Sendable, Hashable {
  /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
  /// (raw values: the `kLAError…` constants, e.g.
  /// https://developer.apple.com/documentation/localauthentication/klaerrorbiometrydisconnected).
  /// The macOS-only cases (`biometryDisconnected` −13, `biometryNotPaired` −12,
  /// `watchNotAvailable` −11: their Swift pages list macOS only) and `invalidDimensions` are not
  /// declared in this iOS shadow; `default` handles them.
  public enum Code: Int, Sendable {
    case authenticationFailed = -1
    case userCancel = -2
    case userFallback = -3
    case systemCancel = -4
    case passcodeNotSet = -5
    case biometryNotAvailable = -6
    case biometryNotEnrolled = -7
    case biometryLockout = -8
    case appCancel = -9
    case invalidContext = -10
    case notInteractive = -1004
  }
  /// The error's code.
  public let code: Code

  /// Shadow only (not Apple API): Apple's `LAError` is made by the framework.
  public init(_ code: Code) { self.code = code }

  public static let authenticationFailed = Code.authenticationFailed
  public static let userCancel = Code.userCancel
  public static let appCancel = Code.appCancel
  public static let systemCancel = Code.systemCancel
}

/// https://developer.apple.com/documentation/localauthentication/lacontext — an `NSObject`
/// subclass Apple does not mark `Sendable`: declared non-Sendable.
open class LAContext: NSObject {
  public override init() {
    behaviour = ShadowLocalAuthentication.behaviour
    super.init()
  }

  private let behaviour: ShadowLocalAuthentication.Behaviour

  /// https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:)
  /// (the `async throws -> Bool` form Swift imports for the completion-handler method).
  open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
    ShadowLocalAuthentication.record(policy: policy, localizedReason: localizedReason)
    switch behaviour {
    case .succeed: return true
    case .fail(let code): throw LAError(code)
    case .returnFalse: return false
    case .throwOther(let error): throw error
    }
  }

  /// https://developer.apple.com/documentation/localauthentication/lacontext/canevaluatepolicy(_:error:)
  open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
    true
  }

  /// https://developer.apple.com/documentation/localauthentication/lacontext/invalidate()
  open func invalidate() {}
}

/// Shadow only (not Apple API): what every `LAContext` created in this task does, and the prompts
/// it was asked to show.
public enum ShadowLocalAuthentication {
  /// The outcome of `evaluatePolicy`.
  public enum Behaviour: Sendable {
    /// The holder authenticated.
    case succeed
    /// Throws `LAError(code)` (`.userCancel`, `.authenticationFailed`, ...).
    case fail(LAError.Code)
    /// Returns false without throwing.
    case returnFalse
    /// Throws an error that is not an `LAError`.
    case throwOther(any Error & Sendable)
  }

  /// The prompts shown, in order.
  public final class Prompts: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(LAPolicy, String)] = []
    public init() {}
    public var all: [(policy: LAPolicy, localizedReason: String)] {
      lock.withLock { recorded.map { (policy: $0.0, localizedReason: $0.1) } }
    }
    func append(_ policy: LAPolicy, _ reason: String) {
      lock.withLock { recorded.append((policy, reason)) }
    }
  }

  @TaskLocal public static var behaviour: Behaviour = .succeed
  @TaskLocal public static var prompts = Prompts()

  static func record(policy: LAPolicy, localizedReason: String) {
    prompts.append(policy, localizedReason)
  }
}
