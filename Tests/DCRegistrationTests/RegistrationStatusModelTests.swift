import DCAPI
import DCRegistration
import Testing

@Suite("Registration status model")
struct RegistrationStatusModelTests {
  typealias Model = RegistrationStatusModel

  @Test("A fresh install is notDetermined, or notSupported where providers are unsupported")
  func initial() {
    #expect(Model(isSupported: true).status == .notDetermined)
    #expect(Model(isSupported: false).status == .notSupported)
  }

  @Test(
    "Before the first authorisation, adding prompts and reading is notAuthorized, not an empty set")
  func beforeAuthorisation() {
    let model = Model(isSupported: true)
    #expect(model.outcome(of: .addRegistration) == .promptsUser)
    #expect(model.outcome(of: .readRegistrations) == .fails(.notAuthorized))
    #expect(model.outcome(of: .removeRegistration) == .fails(.notAuthorized))
  }

  @Test("Granting the prompt authorises every operation")
  func granted() {
    var model = Model(isSupported: true)
    let changed1 = model.promptAnswered(granted: true)
    #expect(changed1)
    #expect(model.status == .authorized)
    for operation in Model.Operation.allCases {
      #expect(model.outcome(of: operation) == .proceeds)
    }
  }

  @Test("Declining the prompt fails every operation without prompting again")
  func declined() {
    var model = Model(isSupported: true)
    let changed2 = model.promptAnswered(granted: false)
    #expect(changed2)
    #expect(model.status == .notAuthorized)
    for operation in Model.Operation.allCases {
      #expect(model.outcome(of: operation) == .fails(.notAuthorized))
    }
    let changed3 = model.promptAnswered(granted: true)
    #expect(!changed3)
    #expect(model.status == .notAuthorized)
  }

  @Test("Settings turn an asked app on and off, never an unasked or unsupported one")
  func settings() {
    var model = Model(status: .notAuthorized)
    let changed4 = model.settingsChanged(enabled: true)
    #expect(changed4)
    #expect(model.status == .authorized)
    let changed5 = model.settingsChanged(enabled: true)
    #expect(!changed5)
    let changed6 = model.settingsChanged(enabled: false)
    #expect(changed6)
    #expect(model.status == .notAuthorized)

    var unasked = Model(status: .notDetermined)
    let changed7 = unasked.settingsChanged(enabled: true)
    #expect(!changed7)
    #expect(unasked.status == .notDetermined)

    var unsupported = Model(isSupported: false)
    let changed8 = unsupported.settingsChanged(enabled: true)
    #expect(!changed8)
    let changed9 = unsupported.promptAnswered(granted: true)
    #expect(!changed9)
    #expect(unsupported.status == .notSupported)
  }

  @Test("notSupported fails every operation with notSupported", arguments: Model.Operation.allCases)
  func unsupported(operation: Model.Operation) {
    #expect(Model(status: .notSupported).outcome(of: operation) == .fails(.notSupported))
  }

  @Test(
    "A prompt answer outside notDetermined changes nothing",
    arguments: [Model.Status.authorized, .notAuthorized, .notSupported])
  func promptIgnored(status: Model.Status) {
    var model = Model(status: status)
    let changed10 = model.promptAnswered(granted: status != .authorized)
    #expect(!changed10)
    #expect(model.status == status)
  }

  @Test("Status names mirror Apple's cases")
  func names() {
    #expect(
      Model.Status.allCases.map(\.rawValue) == [
        "authorized", "notAuthorized", "notDetermined", "notSupported",
      ])
  }
}
