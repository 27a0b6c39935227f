import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWeb
import WidgetWire

extension Command {
    static let run = Command(
        "run", summary: "Host every instance live: timelines, reloads, and the control socket for apps.",
        options: [
            Options.plugins.spec, Options.stateDirectory.spec, Options.memoryLimit.spec, Options.isolation.spec, Options.appearance.spec,
            Options.color.spec, Options.renderingMode.spec, Options.locked.spec, Options.development.spec, Options.log.spec,
            Options.web.spec,
        ],
        discussion: """
            On a terminal it shows a live dashboard: every instance's box in a grid, with timers and relative dates
            ticking every second, redrawn cell by cell, fitted to the window as it is resized; up and down arrows and
            PgUp/PgDn scroll, left and right (Tab) select a box, whose next reload, its reason and its budget the
            footer tells; q or Esc quits. A box whose last reload failed keeps its last good entry, marked
            "as of" its time (so does --log). With --web it also serves the home screen in a browser: its URL, token
            included, is printed, and 'widgets home' opens it (\(Documentation.path("WEB.md"))). 'widgets watch' follows the same changes from another shell. Otherwise (or with --log) it prints a line whenever what an
            instance shows changes. Entries switch at their dates without
            calling the provider; a new timeline is requested when its policy says (.atEnd, .after(date)), when
            an app asks through WidgetCenter or 'widgets reload', and after a failure (with backoff). Budgeted
            reloads are at most 50 in any 24 hours per instance, 5 minutes apart. Apps and the shell reach
            the host on $XDG_RUNTIME_DIR/widgets/control.sock (else /tmp/widgets-UID/). Stops on SIGINT or SIGTERM
            (removing its socket and ending its workers); SIGHUP looks at the bundle directories and the saved
            instances again. Under systemd its lines carry journald priorities; -v adds debug lines, -q keeps
            only warnings and errors.
            """
    ) { try await $0.runHost() }
}

extension Invocation {
    /// How long `widgets run` waits for every bundle before it starts without those still loading.
    static let loadingPatience: TimeInterval = 0.5

    /// `widgets run`: hosts every saved instance until SIGINT or SIGTERM, answering the control
    /// socket. On a terminal it shows the live dashboard; otherwise (or with --log) it prints a line
    /// whenever what an instance shows changes.
    func runHost() async throws(UsageError) -> ExitCode {
        let renderer = try terminalRenderer()
        let webAddress = try value(Options.web)
        let log = LogLines(threshold: try logLevel(), write: output.standardOutput, writeProblem: output.standardError)
        // The host library's lines too, with their priorities under systemd.
        let libraryLog = HostLog.setHandler { level, message in log(level, "widgets: \(level.name): \(message)") }
        defer { HostLog.setHandler(libraryLog) }
        // A bundle slow to load does not hold the host up: it joins when it loads.
        let (registry, searchPath) = try loadSearchPath(patience: Self.loadingPatience)
        defer { registry.shutDownWorkers() }
        // Refusals at the start are warnings of the host's log (with their priority under systemd).
        for problem in registry.problems { log(.warning, "widgets: warning: \(problem)") }
        let budget: ReloadBudget = isSet(Options.development) ? .development : .standard
        let output = self.output
        let dashboard: Dashboard? =
            isSet(Options.log) || isatty(STDOUT_FILENO) != 1
            ? nil
            : Dashboard(
                renderer: renderer, clock: registry.clock, width: Self.terminalWidth(), queue: DispatchQueue(label: "widgets.dashboard"),
                write: { writeWhole($0, to: STDOUT_FILENO) })
        let daemonBox = DaemonBox()
        let locked = renderer.isLocked
        let daemon = WidgetDaemon(
            registry: registry, store: store, budget: budget, environment: { renderer.environment(for: $0) },
            describe: { Self.shownText($0, locked: locked) },
            describeView: { PlainTextRenderer.lines($0, locked: locked).joined(separator: " | ") }
        ) { id, status in
            guard let dashboard, let daemon = daemonBox.daemon else {
                return log(.info, Self.statusLine(id, status, locked: renderer.isLocked))
            }
            let instances = daemon.engine.instances
            dashboard.retain(ids: Set(instances.map(\.id) + Self.activityBoxes(daemon)))
            dashboard.arrange(order: Self.activityBoxes(daemon) + daemon.instances.map(\.id))
            guard let instance = instances.first(where: { $0.id == id }) else { return }
            let widget = registry.widget(kind: instance.kind)
            let name = widget?.displayName ?? ""
            dashboard.show(
                id: id, family: instance.family, title: name.isEmpty ? instance.kind : name,
                contentMarginsDisabled: widget?.contentMarginsDisabled ?? false, status: status)
        }
        daemonBox.daemon = daemon
        // The dashboard's screen is the alternate one, entered before its first frame (an empty
        // host's hint included) and left whole on the way out: nothing stays on the normal screen.
        let restore = "\u{1B}[?25h\u{1B}[?1049l"
        // Left once: a second leaving would put the cursor back over what was printed after the first.
        var onAlternateScreen = dashboard != nil
        func leaveScreen() {
            guard onAlternateScreen else { return }
            onAlternateScreen = false
            writeWhole(restore, to: STDOUT_FILENO)
            ExitGuard.restoreOnBundleExit(terminal: nil)
        }
        if dashboard != nil {
            writeWhole("\u{1B}[?1049h\u{1B}[?25l", to: STDOUT_FILENO)
            ExitGuard.restoreOnBundleExit(terminal: restore)
        }
        // Keys are read from the first frame on.
        let keyboard = dashboard.flatMap { Keyboard(dashboard: $0) }
        if let dashboard {
            daemon.onReorder { dashboard.arrange(order: Self.activityBoxes(daemon) + $0) }
            // Live Activities as boxes of their own before the widgets: the Lock Screen view, drawn
            // as a medium widget is; gone when dismissed.
            _ = daemon.events.subscribe(ids: nil) { event in
                guard let name = event["event"]?.stringValue, name == "activity" || name == "activity-removed",
                    let record = event["activity"].flatMap({ try? ActivityRecord(json: $0) })
                else { return true }
                Self.showActivity(record, on: dashboard, daemon: daemon)
                return true
            }
        }
        let resizes = dashboard.map(Self.followTerminal)
        defer { resizes?.cancel() }
        let say: @Sendable (String) -> Void = { line in
            if let dashboard {
                if LogLines.level(of: line) >= log.threshold { dashboard.post(line) }
            } else {
                log(LogLines.level(of: line), "widgets: \(line)")
            }
        }
        if let dashboard {
            // From here the dashboard holds the screen: the host library's lines (HostLog has kept to
            // the threshold) go to its log too.
            HostLog.setHandler { level, message in dashboard.post("\(level.name): \(message)") }
        }
        if log.threshold <= .debug, dashboard == nil { daemon.debug { line in log(.debug, "widgets: debug: \(line)") } }
        defer {
            keyboard?.restore()
            leaveScreen()
        }
        let socketPath = ControlSocket.path()
        daemon.servesHome = webAddress != nil
        do {
            try daemon.start(socketPath: socketPath) { line in say(line) }
            daemon.notifyActivities(environment: ProcessInfo.processInfo.environment, describe: { PlainTextRenderer.lines($0, locked: locked) }) { line in say(line) }
            daemon.hearLateLoads { line in say(line) }
            // Every directory, those not made yet too: a user's own is often made after the host
            // started, and is taken up once it is.
            try daemon.watch(directories: searchPath) { line in say(line) }
        } catch {
            // Said on the normal screen, where it stays.
            leaveScreen()
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        // The activities a restarted host kept, in their boxes from the first frame.
        if let dashboard {
            for record in daemon.activities.list() { Self.showActivity(record, on: dashboard, daemon: daemon) }
        }
        var homeScreen: HomeScreen?
        if let webAddress {
            do {
                let token = try HomeScreen.token(in: store.directory)
                let home = try HomeScreen.serve(
                    daemon: daemon, address: webAddress, keptIn: store.directory, token: token, renderingMode: try value(Options.renderingMode), log: say)
                if let missing = SystemFont.missing { say("web: \(missing)") }
                daemon.homeURL = home.url
                homeScreen = home
                if !webAddress.isLoopback {
                    say("warning: the home screen listens on \(home.address), which other machines may reach; its token is all that guards it")
                }
                say("home screen: \(home.url)")
            } catch {
                daemon.servesHome = false
                daemon.stop()
                leaveScreen()
                output.standardError("widgets: error: the home screen: \(error)")
                return .failure
            }
        }
        defer { homeScreen?.stop() }
        // The count says what the instances can show: those whose bundle is not loaded are named.
        let loading = registry.loadsUnderway
        let instances = daemon.instances
        let unprovided = loading.isEmpty ? instances.filter { registry.widget(kind: $0.kind) == nil } : []
        let missing =
            unprovided.isEmpty
            ? ""
            : " (\(unprovided.count) of them of kinds no loaded bundle provides, kept until one does: "
                + "\(Set(unprovided.map(\.kind)).sorted().joined(separator: ", ")))"
        say(
            "hosting \(instances.count) instance(s)\(missing) of \(registry.widgets.count) widget(s) from "
                + "\(searchPath.joined(separator: ", ")); control socket \(socketPath)"
                + (budget == .development ? "; development mode: no reload budget" : "") + (dashboard != nil ? "; Ctrl-C stops" : ""))
        if !loading.isEmpty { say("still loading, joining when loaded: \(loading.joined(separator: ", "))") }
        // SIGHUP (`systemctl --user reload widgets`): look at the bundle directories and the saved
        // instances again.
        signal(SIGHUP, SIG_IGN)
        let hangUps = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
        hangUps.setEventHandler {
            say("SIGHUP: looking again at the bundle directories and the saved instances")
            daemon.rescan()
        }
        hangUps.resume()
        defer { hangUps.cancel() }
        let signal = await Self.waitForTermination()
        daemon.stop()
        homeScreen?.stop()
        registry.shutDownWorkers()
        if dashboard == nil { log(.info, "widgets: stopped (\(signal))") }
        return .success
    }

    /// The terminal's width: the window's, else $COLUMNS, else 100.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 100
    }

    /// The terminal's height: the window's, else $LINES, else 40.
    static func terminalHeight() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init) ?? 40
    }

    /// Sizes the dashboard to the window, now and on every resize (SIGWINCH), until the returned
    /// source is cancelled.
    static func followTerminal(_ dashboard: Dashboard) -> DispatchSourceSignal {
        dashboard.width = terminalWidth()
        dashboard.height = terminalHeight()
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler {
            dashboard.width = terminalWidth()
            dashboard.height = terminalHeight()
            dashboard.redraw()
        }
        source.resume()
        // Drawn at once: an empty host shows how to add a widget.
        dashboard.redraw()
        return source
    }

    /// Waits (without a thread) until SIGINT or SIGTERM; returns its name.
    static func waitForTermination() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            TerminationSignals.shared.notify { continuation.resume(returning: $0) }
        }
    }
}

/// The daemon, for its own observer, which is made before it.
final class DaemonBox: Sendable {
    private let stored = Mutex<WidgetDaemon?>(nil)

    var daemon: WidgetDaemon? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

extension Invocation {
    /// A Live Activity in the dashboard, a box before the widgets: its Lock Screen view drawn as a
    /// medium widget is, its type in the box's edge; gone once dismissed.
    fileprivate static func showActivity(_ record: ActivityRecord, on dashboard: Dashboard, daemon: WidgetDaemon) {
        if let drawn = record.presentations, record.phase != .dismissed {
            let state = record.isStale ? " (stale)" : record.phase == .ended ? " (ended)" : ""
            dashboard.show(
                id: record.id, family: .systemMedium, title: "Live Activity · \(record.type)\(state)",
                status: InstanceStatus(phase: .showing, entry: WireEntry(date: record.updated, view: drawn.lockScreen), timelines: 1))
        }
        // A dismissed one is gone from the host's list, and so from the boxes kept.
        dashboard.retain(ids: Set(daemon.instances.map(\.id) + activityBoxes(daemon)))
        dashboard.arrange(order: activityBoxes(daemon) + daemon.instances.map(\.id))
    }

    /// The activities the dashboard shows: those the host keeps with a drawing, as it lists them.
    fileprivate static func activityBoxes(_ daemon: WidgetDaemon) -> [String] {
        daemon.activities.list().filter { $0.presentations != nil }.map(\.id)
    }
}
