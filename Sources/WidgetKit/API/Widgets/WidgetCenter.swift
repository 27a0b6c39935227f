import CWidgetKit
import Foundation
import Synchronization
public import WidgetWire

/// An app's line to the running widget host: reload its widgets' timelines, and see which of its
/// widgets are placed and how they are configured.
///
/// As on iOS, from any process. Here it talks to the host (`widgets run`) over its control socket
/// (`$XDG_RUNTIME_DIR/widgets/control.sock`), which only the same user may use.
///
/// As on iOS, `reloadAllTimelines()` reloads the app's own widgets: those of the bundles whose
/// identifier starts with the app's bundle identifier, or that share an app group the app uses
/// (its containers and `SharedDefaults`); an app that has neither reloads them all. An app's reloads
/// are outside the widgets' reload budget while it runs in the user's session, as a foreground
/// app's are on iOS; one started by systemd, or from a widget's own process, is budgeted.
///
/// Linux differences: the reload methods return a discardable result, so an app can tell that no
/// host is running (iOS code that ignores it compiles unchanged).
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()

    private let foreground = Mutex<Bool?>(nil)
    private let socketPath: String?

    /// Creates a center for a host listening at `socketPath` (the default: the user's running host).
    public init(socketPath: String? = nil) {
        self.socketPath = socketPath
    }

    /// Whether the app's reloads are outside the reload budget, as a foreground app's are on iOS:
    /// by default, when it runs in the user's session (on a terminal or a display) and not as a
    /// service or a widget's process. Setting it overrides that.
    public var isForeground: Bool {
        get { foreground.withLock { $0 } ?? Self.runsInForeground }
        set { foreground.withLock { $0 = newValue } }
    }

    /// Whether this process is an app the user runs: not a widget bundle's process, not a systemd
    /// unit, and on a terminal or a display.
    static var runsInForeground: Bool {
        if BundleExport.shared.exportedEntry != nil { return false }
        let environment = ProcessInfo.processInfo.environment
        if environment["INVOCATION_ID"] != nil { return false }
        let display = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
        return display || isatty(0) == 1 || isatty(1) == 1 || isatty(2) == 1
    }

    /// Who the app is, for the host: its bundle identifier and the app groups it has used.
    static var appScope: ControlRequest.AppIdentity {
        ControlRequest.AppIdentity(identifier: Bundle.main.bundleIdentifier, groups: AppGroupsUsed.all)
    }

    /// What went wrong talking to the host, one line: no host running, another user's host, a
    /// kind it does not know.
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Asks the host to reload the timelines of every placed widget of `kind`. Returns how many
    /// instances will reload.
    @discardableResult
    public func reloadTimelines(ofKind kind: String) -> Result<Int, Error> {
        reload(kind: kind, app: nil)
    }

    /// Asks the host to reload the timelines of every placed widget.
    @discardableResult
    public func reloadAllTimelines() -> Result<Int, Error> {
        reload(kind: nil, app: Self.appScope)
    }

    /// Asks for the widgets' recommended configurations afresh (iOS 17). The host asks a provider for
    /// its recommendations each time they are shown, so there is nothing kept to invalidate.
    public func invalidateConfigurationRecommendations() {}

    /// The placed widgets and their configurations, delivered to `completion` on another thread.
    public func getCurrentConfigurations(_ completion: @escaping @Sendable (Result<[WidgetInfo], any Swift.Error>) -> Void) {
        let path = socketPath
        Thread.detachNewThread {
            completion(Result { try Self.configurations(path) })
        }
    }

    /// The placed widgets and their configurations.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        try await withCheckedThrowingContinuation { continuation in
            getCurrentConfigurations { continuation.resume(with: $0) }
        }
    }

    private func reload(kind: String?, app: ControlRequest.AppIdentity?) -> Result<Int, Error> {
        // An app reloads after it writes: what it wrote to a shared UserDefaults suite is on disk
        // before the widgets read it.
        widgetkit_synchronize_defaults()
        do {
            guard case .reloaded(let count, _) = try Self.client(socketPath).send(.reload(kind: kind, app: app, foreground: isForeground)) else {
                return .success(0)
            }
            return .success(count)
        } catch {
            return .failure(Error(description: error.description))
        }
    }

    private static func client(_ path: String?) throws(ControlError) -> ControlClient {
        try ControlClient(path: path ?? ControlSocket.path())
    }

    private static func configurations(_ path: String?) throws -> [WidgetInfo] {
        do {
            guard case .configurations(let list) = try client(path).send(.configurations) else { return [] }
            return list.compactMap { WidgetInfo(json: $0.json) }
        } catch {
            throw Error(description: error.description)
        }
    }
}

/// A placed widget, as `WidgetCenter` reports it.
public struct WidgetInfo: Sendable, CustomStringConvertible {
    public let kind: String
    public let family: WidgetFamily
    /// The instance's identifier in the host (Linux: iOS keeps it private).
    public let id: String
    /// The configuration's values by parameter name; entities by identifier.
    public let configurationValues: JSONObject

    init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue, let id = json["id"]?.stringValue,
            let family = json["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:))
        else { return nil }
        self.kind = kind
        self.id = id
        self.family = family
        self.configurationValues = json["configuration"]?.objectValue ?? JSONObject()
    }

    /// The instance's configuration as its intent. Async on Linux: an entity is kept by identifier and
    /// resolved through its query here, where iOS stored the entity itself. Nil when the intent is not
    /// this widget's, or a value no longer resolves.
    public func widgetConfigurationIntent<Intent: WidgetConfigurationIntent>(of type: Intent.Type = Intent.self) async -> Intent? {
        let intent = Intent()
        do {
            try await IntentParameters.fill(intent, from: JSONValue.object(configurationValues).jsonText)
        } catch {
            return nil
        }
        return intent
    }

    public var description: String { "\(kind) (\(family.rawValue)) \(id)" }
}
