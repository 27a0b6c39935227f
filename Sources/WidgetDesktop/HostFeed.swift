import CWayland
import FoundationEssentials
import Glibc
import Synchronization
import WidgetRendering
import WidgetSupport
import WidgetWire

/// What one instance shows, as the host's `entries` answer says.
struct ShownInstance: Equatable, Sendable {
    var id: String
    var family: WidgetFamily
    var phase: String
    /// The entry's view tree; nil before the first entry (or when it cannot be read).
    var view: ViewNode?
    var entryDate: Double?
    var contentMarginsDisabled: Bool
    var failure: String?

    init?(_ json: JSONValue) {
        guard let id = json["id"]?.stringValue, let family = json["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)) else { return nil }
        self.id = id
        self.family = family
        phase = json["phase"]?.stringValue ?? "loading"
        view = json["view"].flatMap { $0 == .null ? nil : try? ViewNode(json: $0) }
        entryDate = json["entryDate"]?.numberValue
        contentMarginsDisabled = json["contentMarginsDisabled"]?.boolValue ?? false
        failure = json["failure"]?.stringValue
    }
}

/// The running host as the desktop sees it: a thread of its own watches the host's events and asks
/// for what the instances show after each; when the host goes away it keeps what was shown, says so,
/// and connects again when a socket appears (each second at most) until the host is back. The
/// drawing thread is woken through an eventfd (`wake`) and takes the news with `take()`.
final class HostFeed: @unchecked Sendable {
    struct News {
        /// The instances in the home screen's order, when they changed since the last `take`.
        var instances: [ShownInstance]?
        /// Whether the host is away (stopped, restarting), when that changed.
        var away: Bool?
        /// What the host said went wrong, to be told once.
        var messages: [String] = []
        /// The desktop's light or dark, when it changed (not the host's news, but woken for alike).
        var appearance: Appearance??
    }

    let wake: Int32
    private let socketPath: String
    private let state = Mutex<(news: News, last: [ShownInstance], away: Bool)>((News(), [], false))
    private let stopping = Atomic<Bool>(false)
    /// The watch's connection, for `stop` to close.
    private let watchingLock = Lock()
    private var watching: ControlClient?

    /// Whether the host's Live Activities and Controls are asked for with the instances.
    private let activities: Bool
    private let controls: Bool

    init(socketPath: String, activities: Bool = true, controls: Bool = true) throws(DesktopError) {
        self.socketPath = socketPath
        self.activities = activities
        self.controls = controls
        wake = wd_wake_fd()
        guard wake >= 0 else { throw DesktopError("cannot make an eventfd: \(String(cString: strerror(errno)))") }
    }

    deinit { close(wake) }

    /// Starts watching, on a thread of its own.
    func start() {
        startThread(named: "widgets-feed") { [self] in run() }
    }

    /// Ends the watch: its connection is closed, and the thread ends at its next look.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        watchingLock.withLock { watching?.close() }
    }

    /// The desktop's new light or dark (nil: no preference), taken with the host's news.
    func postAppearance(_ appearance: Appearance?) {
        post { $0.appearance = .some(appearance) }
    }

    /// Something to say, taken with the host's news (from another thread of the client's).
    func postMessage(_ message: String) {
        post { $0.messages.append(message) }
    }

    /// What changed since the last call.
    func take() -> News {
        var counter: UInt64 = 0
        _ = read(wake, &counter, 8)
        return state.withLock { state in
            defer { state.news = News() }
            return state.news
        }
    }

    private func post(_ change: (inout News) -> Void) {
        state.withLock { change(&$0.news) }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func run() {
        var announcedAway = false
        while !stopping.load(ordering: .relaxed) {
            do throws(ControlError) {
                let watcher = try ControlClient(path: socketPath)
                watchingLock.withLock { watching = watcher }
                guard !stopping.load(ordering: .relaxed) else { return }
                guard case .watching = try watcher.send(.watch(ids: nil)) else { throw ControlError("the host did not start a watch") }
                try refresh()
                if announcedAway { setAway(false) }
                announcedAway = false
                while let _ = try watcher.nextEvent() {
                    try refresh()
                }
            } catch {
                if !announcedAway, !error.description.hasPrefix("no widget host is running") {
                    // A host from before `entries` refuses it: said so, not taken for a host away.
                    let older = error.isRefusal && error.description.contains("unknown request \"entries\"")
                    post {
                        $0.messages.append(
                            older ? "the running host is older than widgets desktop (it has no entries request); restart it (systemctl --user restart widgets)" : "the host: \(error)")
                    }
                }
            }
            guard !stopping.load(ordering: .relaxed) else { return }
            if !announcedAway {
                setAway(true)
                announcedAway = true
            }
            // The host is away: looked for again as soon as a socket appears, each second at most.
            ControlSocket.waitForHost(path: socketPath)
        }
    }

    private func setAway(_ away: Bool) {
        let changed = state.withLock { state -> Bool in
            guard state.away != away else { return false }
            state.away = away
            return true
        }
        if changed { post { $0.away = away } }
    }

    /// Asks what every instance shows, and posts it when it differs from what was posted last.
    private func refresh() throws(ControlError) {
        let client = try ControlClient(path: socketPath)
        guard case .entries(let list) = try client.send(.entries(ids: nil, activities: activities, controls: controls)) else { throw ControlError("the host answered entries with something else") }
        let instances = list.compactMap(ShownInstance.init)
        let changed = state.withLock { state -> Bool in
            guard state.last != instances else { return false }
            state.last = instances
            return true
        }
        if changed { post { $0.instances = instances } }
    }
}
