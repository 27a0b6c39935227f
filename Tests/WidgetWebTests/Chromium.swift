import Foundation
import Glibc
import WidgetTestSupport
import WidgetWire

/// A headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: the
/// browser reads commands on descriptor 3 and writes answers on 4, each a JSON text ending in NUL),
/// which needs nothing but the browser.
final class Chromium: @unchecked Sendable {
    private let process: pid_t
    private let commands: Int32
    private let answers: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?
    private let profile: URL
    /// Events the browser sent while a command's answer was awaited (console messages, exceptions).
    private(set) var events: [JSONValue] = []

    /// The browser, from $CHROMIUM or the PATH (Debian's `chromium`); nil when there is none.
    static var executable: String? {
        if let given = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: given) { return given }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    init(executable: String, profile: URL, width: Int = 1280, height: Int = 900) throws {
        self.profile = profile
        var toBrowser: [Int32] = [-1, -1]
        var fromBrowser: [Int32] = [-1, -1]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw RawHTTPError("cannot make pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)",
            "about:blank",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        // Its crash reporter keeps its settings under XDG_CONFIG_HOME whatever the profile: the
        // profile's, so that a test run writes nothing of the user's.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = profile.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = profile.appendingPathComponent("cache").path
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard spawned == 0 else {
            close(toBrowser[1])
            close(fromBrowser[0])
            throw RawHTTPError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        process = pid
        commands = toBrowser[1]
        answers = fromBrowser[0]
        let target = try commandNow("Target.createTarget", ["url": .string("about:blank")], inSession: false)
        guard let targetID = target["targetId"]?.stringValue else { throw RawHTTPError("no target: \(target)") }
        let attached = try commandNow("Target.attachToTarget", ["targetId": .string(targetID), "flatten": .bool(true)], inSession: false)
        session = attached["sessionId"]?.stringValue
        _ = try commandNow("Page.enable")
        _ = try commandNow("Runtime.enable")
        _ = try commandNow("Emulation.setDeviceMetricsOverride", [
            "width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": .number(1), "mobile": .bool(false),
        ])
    }

    deinit { quit() }

    private var quitted = false

    func quit() {
        guard !quitted else { return }
        quitted = true
        _ = try? commandNow("Browser.close", inSession: false, timeout: 5)
        close(commands)
        close(answers)
        kill(process, SIGKILL)
        var status: Int32 = 0
        waitpid(process, &status, 0)
    }

    /// Sends a command (to the page unless `inSession` is false) and returns its result; throws
    /// the browser's error, or when no answer comes within `timeout` seconds.
    /// `commandNow` on a thread of its own, off the cooperative pool.
    @discardableResult
    func command(_ method: String, _ parameters: [String: JSONValue] = [:], inSession: Bool = true, timeout: TimeInterval = 30) async throws -> JSONValue {
        try await offThePool { try self.commandNow(method, parameters, inSession: inSession, timeout: timeout) }
    }

    @discardableResult
    func commandNow(_ method: String, _ parameters: [String: JSONValue] = [:], inSession: Bool = true, timeout: TimeInterval = 30) throws -> JSONValue {
        nextID += 1
        let id = nextID
        var message: [(key: String, value: JSONValue)] = [("id", .number(Double(id))), ("method", .string(method))]
        message.append(("params", .object(JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))))
        if inSession, let session { message.append(("sessionId", .string(session))) }
        let bytes = Array(JSONValue.object(JSONObject(message)).jsonText.utf8) + [0]
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(commands, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { throw RawHTTPError("the browser stopped reading (\(method))") }
            offset += written
        }
        let giveUp = Date().addingTimeInterval(timeout)
        while true {
            let answer = try nextMessage(until: giveUp, method: method)
            if answer["id"] == .number(Double(id)) {
                if let error = answer["error"] { throw RawHTTPError("\(method): \(error.jsonText)") }
                return answer["result"] ?? .null
            }
            if answer["method"] != nil { events.append(answer) }
        }
    }

    private func nextMessage(until giveUp: Date, method: String) throws -> JSONValue {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 1)
                return try JSONValue.parse(text)
            }
            let remaining = giveUp.timeIntervalSinceNow
            guard remaining > 0 else { throw RawHTTPError("no answer to \(method) in time") }
            var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            let count = read(answers, &chunk, chunk.count)
            guard count > 0 else { throw RawHTTPError("the browser closed its pipe (\(method))") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Opens `url` and waits for its load.
    func navigate(_ url: String) async throws {
        _ = try await command("Page.navigate", ["url": .string(url)])
        _ = try await waitFor("document.readyState === 'complete'")
    }

    /// The value of a JavaScript expression in the page (a promise awaited).
    func evaluate(_ expression: String) async throws -> JSONValue {
        let result = try await command("Runtime.evaluate", ["expression": .string(expression), "returnByValue": .bool(true), "awaitPromise": .bool(true)])
        if let exception = result["exceptionDetails"] { throw RawHTTPError("\(expression): \(exception.jsonText)") }
        return result["result"]?["value"] ?? .null
    }

    /// Waits (the page's own time passing, polled every 50 ms) until `condition` is true in the
    /// page; false after `timeout` s.
    func waitFor(_ condition: String, timeout: TimeInterval = 30) async throws -> Bool {
        let giveUp = Date().addingTimeInterval(timeout)
        while Date() < giveUp {
            if try await evaluate("!!(\(condition))") == .bool(true) { return true }
            _ = try await offThePool { usleep(50_000) }
        }
        return false
    }

    /// Clicks, as a person does, in the middle of the first element `selector` finds (scrolled to first).
    func click(_ selector: String) async throws {
        let box = try await evaluate(
            "(() => { const e = document.querySelector(\(JSONValue.string(selector).jsonText)); e.scrollIntoView({ block: 'center' }); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        guard let point = box.arrayValue?.compactMap(\.numberValue), point.count == 2 else { throw RawHTTPError("nothing at \(selector)") }
        for type in ["mousePressed", "mouseReleased"] {
            _ = try await command("Input.dispatchMouseEvent", [
                "type": .string(type), "x": .number(point[0]), "y": .number(point[1]), "button": .string("left"), "clickCount": .number(1),
            ])
        }
    }

    /// Presses a key as a keyboard does (Tab, Escape, ArrowRight...), down then up.
    func press(_ key: String, code: Int) async throws {
        for type in ["keyDown", "keyUp"] {
            _ = try await command("Input.dispatchKeyEvent", [
                "type": .string(type), "key": .string(key), "code": .string(key), "windowsVirtualKeyCode": .number(Double(code)),
            ])
        }
    }

    /// Puts a finger (a touch point) on the middle of the first element `selector` finds and holds
    /// it until `condition` holds in the page (at most `timeout` seconds), then lifts it: a long
    /// press, as long as the page needs to notice it. Returns whether the condition came to hold.
    func longPress(_ selector: String, until condition: String, timeout: TimeInterval = 10) async throws -> Bool {
        let box = try await evaluate(
            "(() => { const e = document.querySelector(\(JSONValue.string(selector).jsonText)); e.scrollIntoView({ block: 'center' }); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        guard let point = box.arrayValue?.compactMap(\.numberValue), point.count == 2 else { throw RawHTTPError("nothing at \(selector)") }
        let touch: JSONValue = .array([.object(JSONObject([("x", .number(point[0])), ("y", .number(point[1]))]))])
        _ = try await command("Input.dispatchTouchEvent", ["type": .string("touchStart"), "touchPoints": touch])
        let held = try await waitFor(condition, timeout: timeout)
        _ = try await command("Input.dispatchTouchEvent", ["type": .string("touchEnd"), "touchPoints": .array([])])
        return held
    }

    /// A PNG of the page as it is drawn now.
    func screenshot() async throws -> Data {
        let result = try await command("Page.captureScreenshot", ["format": .string("png")])
        guard let data = result["data"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else { throw RawHTTPError("no screenshot") }
        return data
    }
}
