// Shadow of the SwiftUI surface the Apple edge and Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md use (test only; see
// Tests/AppleShadow/README.md), after https://developer.apple.com/documentation/swiftui. Views
// here render nothing: they only have to type-check as SwiftUI's do.
/// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
  public var body: Never { fatalError("Never has no body") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content)
    -> TupleView<(repeat each Content)>
  { TupleView((repeat each content)) }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> {
    _ConditionalContent(storage: .trueContent(first))
  }
  public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> {
    _ConditionalContent(storage: .falseContent(second))
  }
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
    AnyView(content)
  }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
nonisolated public struct EmptyView: View {
  nonisolated public init() {}
  public var body: Never { fatalError("EmptyView has no body") }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
nonisolated public struct TupleView<T>: View {
  public var value: T
  nonisolated public init(_ value: T) { self.value = value }
  public var body: Never { fatalError("TupleView has no body") }
}

/// The result of `buildEither`.
nonisolated public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
  enum Storage {
    case trueContent(TrueContent)
    case falseContent(FalseContent)
  }
  let storage: Storage
  public var body: Never { fatalError("_ConditionalContent has no body") }
}

extension Optional: View where Wrapped: View {
  public var body: Never { fatalError("Optional has no body") }
}

/// https://developer.apple.com/documentation/swiftui/anyview
nonisolated public struct AnyView: View {
  nonisolated public init<V: View>(_ view: V) {}
  public var body: Never { fatalError("AnyView has no body") }
}

// MARK: Views the integration guide uses

/// https://developer.apple.com/documentation/swiftui/text
nonisolated public struct Text: View {
  public init(_ content: some StringProtocol) {}
  public var body: Never { fatalError("Text has no body") }
  /// https://developer.apple.com/documentation/swiftui/text/font(_:)
  public func font(_ font: Font?) -> Text { self }
  /// https://developer.apple.com/documentation/swiftui/text/foregroundstyle(_:)
  public func foregroundStyle(_ style: some ShapeStyle) -> Text { self }
}

/// https://developer.apple.com/documentation/swiftui/font
public struct Font: Hashable, Sendable {
  let name: String
  public static let caption = Font(name: "caption")
  public static let body = Font(name: "body")
  public static let headline = Font(name: "headline")
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

/// https://developer.apple.com/documentation/swiftui/color
public struct Color: ShapeStyle, Hashable {
  let name: String
  public static let red = Color(name: "red")
  public static let orange = Color(name: "orange")
  public static let secondary = Color(name: "secondary")
}

extension ShapeStyle where Self == Color {
  public static var red: Color { .red }
  public static var orange: Color { .orange }
  public static var secondary: Color { .secondary }
}

/// https://developer.apple.com/documentation/swiftui/label
nonisolated public struct Label: View {
  public init(_ title: some StringProtocol, systemImage name: String) {}
  public var body: Never { fatalError("Label has no body") }
}

/// https://developer.apple.com/documentation/swiftui/list
nonisolated public struct List<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError("List has no body") }
}

/// https://developer.apple.com/documentation/swiftui/section
nonisolated public struct Section<Content: View>: View {
  public init(_ title: some StringProtocol, @ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError("Section has no body") }
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment
public struct HorizontalAlignment: Sendable, Equatable {
  let name: String
  public static let leading = HorizontalAlignment(name: "leading")
  public static let center = HorizontalAlignment(name: "center")
}

/// https://developer.apple.com/documentation/swiftui/vstack
nonisolated public struct VStack<Content: View>: View {
  public init(
    alignment: HorizontalAlignment = .center, spacing: Double? = nil,
    @ViewBuilder content: () -> Content
  ) {}
  public var body: Never { fatalError("VStack has no body") }
}

/// https://developer.apple.com/documentation/swiftui/foreach
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
  public init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {}
  public var body: Never { fatalError("ForEach has no body") }
}

/// https://developer.apple.com/documentation/swiftui/buttonrole
public struct ButtonRole: Sendable, Equatable {
  let name: String
  public static let cancel = ButtonRole(name: "cancel")
  public static let destructive = ButtonRole(name: "destructive")
}

/// https://developer.apple.com/documentation/swiftui/button
nonisolated public struct Button<Label: View>: View {
  public var body: Never { fatalError("Button has no body") }
}

extension Button where Label == Text {
  /// https://developer.apple.com/documentation/swiftui/button/init(_:role:action:)-*
  public init(
    _ title: some StringProtocol, role: ButtonRole? = nil,
    action: @escaping @MainActor () -> Void
  ) {}
}

/// https://developer.apple.com/documentation/swiftui/toggle
nonisolated public struct Toggle<Label: View>: View {
  public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
  public var body: Never { fatalError("Toggle has no body") }
}

/// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  private let getter: () -> Value
  private let setter: (Value) -> Void
  /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-*
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    getter = get
    setter = set
  }
  public var wrappedValue: Value {
    get { getter() }
    nonmutating set { setter(newValue) }
  }
  public var projectedValue: Binding<Value> { self }
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>)
    -> Binding<Subject>
  {
    Binding<Subject>(
      get: { self.wrappedValue[keyPath: keyPath] },
      set: { self.wrappedValue[keyPath: keyPath] = $0 })
  }
}

/// https://developer.apple.com/documentation/swiftui/state
@propertyWrapper
public struct State<Value> {
  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
  private let box: Box
  public init(wrappedValue value: Value) { box = Box(value) }
  public init(initialValue value: Value) { box = Box(value) }
  public var wrappedValue: Value {
    get { box.value }
    nonmutating set { box.value = newValue }
  }
  public var projectedValue: Binding<Value> {
    let box = self.box
    return Binding(get: { box.value }, set: { box.value = $0 })
  }
}

extension State where Value: ExpressibleByNilLiteral {
  public init() { self.init(wrappedValue: nil) }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
  public init() {}
  /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase
  public var scenePhase: ScenePhase = .active
}

/// https://developer.apple.com/documentation/swiftui/scenephase
public enum ScenePhase: Comparable, Hashable, Sendable {
  case background
  case inactive
  case active
}

/// https://developer.apple.com/documentation/swiftui/environment
@propertyWrapper
public struct Environment<Value> {
  private let keyPath: KeyPath<EnvironmentValues, Value>
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
  public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// A view with a modifier applied (the shadow's one modified-content type).
nonisolated public struct ModifiedView<Content: View>: View {
  let content: Content
  public var body: Never { fatalError("ModifiedView has no body") }
}

extension View {
  /// https://developer.apple.com/documentation/swiftui/view/task(priority:_:)
  nonisolated public func task(
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
  ) -> ModifiedView<Self> { ModifiedView(content: self) }

  /// https://developer.apple.com/documentation/swiftui/view/font(_:)
  nonisolated public func font(_ font: Font?) -> ModifiedView<Self> { ModifiedView(content: self) }

  /// https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:)
  nonisolated public func foregroundStyle(_ style: some ShapeStyle) -> ModifiedView<Self> {
    ModifiedView(content: self)
  }

  /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-*
  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void
  ) -> ModifiedView<Self> { ModifiedView(content: self) }
}

// MARK: Apps and scenes

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
  public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
  public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
  associatedtype Body: Scene
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
  init()
}

extension App {
  /// The entry point `@main` calls.
  public static func main() {}
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
nonisolated public struct WindowGroup<Content: View>: Scene {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError("WindowGroup has no body") }
}

/// A scene with a modifier applied.
nonisolated public struct ModifiedScene<Content: Scene>: Scene {
  let content: Content
  public var body: Never { fatalError("ModifiedScene has no body") }
}

extension Scene {
  /// https://developer.apple.com/documentation/swiftui/scene/onchange(of:initial:_:)-*
  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void
  ) -> ModifiedScene<Self> { ModifiedScene(content: self) }
}

/// https://developer.apple.com/documentation/swiftui/contentbuilder (`typealias ContentBuilder =
/// ViewBuilder`), the builder Apple's 27.3 request scenes take their content with.
public typealias ContentBuilder = ViewBuilder
