import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// The widgets of Tests/iOSStyleBundle, written as iOS 17 code is, built outside the repository
/// against this package in both language modes, and asked through the CLI in process isolation.
/// Most tests hold one runtime bug of issue 19 down; each says which.
@Suite struct IOSStyleBundleTests {
    enum Mode: String, CaseIterable, Sendable {
        case swift5 = "IOSWidgets5"
        case swift6 = "IOSWidgets6"
    }

    /// The package's products: both bundles, the app, and Author/'s bundle (ThirdPartyBundleTests).
    /// `make test` builds them before the tests (Tests/iOSStyleBundle/build.sh), so that no test runs
    /// beside a compiler taking every core; run alone, the tests build them here, once.
    static let products = Once<Result<URL, BuildFailure>> {
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/iOSStyleBundle/build.sh").path
        let products = Fixtures.repositoryRoot.appendingPathComponent(".build-ios-style/package/.build/debug")
        let expected = Mode.allCases.map { "lib\($0.rawValue).so" } + ["ios-app", "libWeatherWidgets.so"]
        if expected.allSatisfy({ FileManager.default.fileExists(atPath: products.appendingPathComponent($0).path) }) {
            return .success(products)
        }
        let build = runProcessWaiting("/usr/bin/env", ["bash", script])
        guard build.status == 0 else { return .failure(BuildFailure(output: build.standardOutput + build.standardError)) }
        return .success(products)
    }

    struct BuildFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "Tests/iOSStyleBundle did not build:\n\(output)" }
    }

    /// A bundle directory holding the bundle built in `mode`.
    static func plugins(_ mode: Mode) async throws -> URL {
        let products = try await products.value.get()
        let directory = Fixtures.temporaryDirectory("ios-plugins")
        try FileManager.default.copyItem(
            at: products.appendingPathComponent("lib\(mode.rawValue).so"), to: directory.appendingPathComponent("lib\(mode.rawValue).so"))
        return directory
    }

    static func json(_ result: ProcessResult) throws -> JSONValue {
        try JSONValue.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(.timeLimit(.minutes(15)), arguments: Mode.allCases)
    func bothLanguageModesBuildAndRegisterEveryWidgetAsWritten(mode: Mode) async throws {
        let plugins = try await Self.plugins(mode)
        let list = await widgets(["--plugins", plugins.path, "list", "--json"])
        #expect(list.status == 0, "\(list.standardError)")
        let bundle = try #require(try Self.json(list)["bundles"]?.arrayValue?.first)
        #expect(bundle["name"]?.stringValue?.hasPrefix("libIOSWidgets") == true, "an @main bundle that gives no name is named by its file, not its Swift type: \(bundle["name"] ?? .null)")
        let widgets = try #require(bundle["widgets"]?.arrayValue)
        #expect(
            widgets.compactMap { $0["kind"]?.stringValue }.sorted()
                == [
                    "org.example.catalog", "org.example.dropped", "org.example.emoji", "org.example.legacy-dropped", "org.example.main-actor",
                    "org.example.price-chart", "org.example.shared-counter", "org.example.steps", "org.example.timer", "org.example.weather",
                ])
        let weather = try #require(widgets.first { $0["kind"] == .string("org.example.weather") })
        #expect(weather["displayName"] == .string("Weather"), "configurationDisplayName(Text)")
        #expect(weather["description"] == .string("The temperature where you are."))
        // Runtime bug 6: `static var description = IntentDescription("…")` is the intent's description.
        let steps = try #require(widgets.first { $0["kind"] == .string("org.example.steps") })
        #expect(steps["configurationSchema"]?["description"] == .string("Choose a goal and a trail."), "\(steps)")
        #expect(steps["configurationSchema"]?["title"] == .string("Step Goal"))
        let parameters = steps["configurationSchema"]?["parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(parameters == ["goal", "steps", "trail", "alsoWalked"])
        // Xcode's template Live Activity and Control, as it writes them, are offered and run.
        #expect(bundle["activities"] == .array([.string("DeliveryActivityAttributes")]))
        #expect(bundle["controls"] == .array([.string("org.example.timer-control")]))
        let control = await WidgetTestSupport.widgets(["--plugins", plugins.path, "control", "org.example.timer-control"])
        #expect(control.standardOutput.contains("org.example.timer-control  toggle  Start Timer: ") && control.standardOutput.hasSuffix("On\n"), "\(control.standardOutput)\(control.standardError)")
    }

    /// A query's `@IntentParameterDependency`: the choices of a parameter follow those set before it,
    /// from the CLI as from a configuration screen.
    @Test(.timeLimit(.minutes(15)), arguments: Mode.allCases)
    func aQuerySeesTheParametersSetBeforeItsOwn(mode: Mode) async throws {
        let plugins = try await Self.plugins(mode)
        func trails(_ extra: [String]) async -> String {
            let result = await widgets(["--plugins", plugins.path, "options", "org.example.steps", "trail"] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let any = await trails([])
        #expect(any.contains("Coast Path") && any.contains("Ridge Walk"), "\(any)")
        let climbing = await trails(["--set", "goal=climb"])
        #expect(climbing.contains("Ridge Walk") && !climbing.contains("Coast Path"), "\(climbing)")
        // Adding an instance checks the trail against the choices for the goal set with it.
        let state = Fixtures.temporaryDirectory("state")
        func add(_ trail: String) async -> ProcessResult {
            await widgets(["--plugins", plugins.path, "add", "org.example.steps", "--set", "goal=climb", "--set", "trail=\(trail)", "--state-dir", state.path])
        }
        let refused = await add("coast")
        #expect(refused.status != 0 && refused.standardError.contains("coast"), "\(refused.standardError)")
        let added = await add("ridge")
        #expect(added.status == 0, "\(added.standardError)")
        // Resolving the instance's trail for its timeline, the query sees the goal as well.
        let climb = await widgets(["--plugins", plugins.path, "timeline", "--instance", "steps-1", "--state-dir", state.path, "--json"])
        #expect(climb.standardOutput.contains("Ridge Walk (climb)"), "\(climb.standardOutput)\(climb.standardError)")
        let snapshot = await widgets(["--plugins", plugins.path, "snapshot", "--instance", "steps-1", "--state-dir", state.path, "--json"])
        #expect(snapshot.standardOutput.contains("Ridge Walk (climb)"), "\(snapshot.standardOutput)\(snapshot.standardError)")

        // A list of entities (`[Trail]?`, `size: 2`): values separated by commas, each among the
        // query's choices, no more than its size.
        func addWalked(_ list: String) async -> ProcessResult {
            await widgets(["--plugins", plugins.path, "add", "org.example.steps", "--set", "alsoWalked=\(list)", "--state-dir", state.path])
        }
        let walked = await addWalked("coast, ridge")
        #expect(walked.status == 0, "\(walked.standardError)")
        let listed = await widgets(["instances", "--json", "--state-dir", state.path])
        #expect(listed.standardOutput.contains(#""alsoWalked":["coast","ridge"]"#), "\(listed.standardOutput)")
        let tooMany = await addWalked("coast,ridge,coast")
        #expect(tooMany.status != 0 && tooMany.standardError.contains("3 values, more than the 2 it holds"), "\(tooMany.standardError)")
        let unknown = await addWalked("coast,moon")
        #expect(unknown.status != 0 && unknown.standardError.contains("moon"), "\(unknown.standardError)")
        // The provider reads the list as [Trail]: its timeline names them.
        let shown = await widgets(["--plugins", plugins.path, "timeline", "--instance", "steps-2", "--state-dir", state.path, "--json"])
        #expect(shown.standardOutput.contains("Also: Coast Path, Ridge Walk"), "\(shown.standardOutput)\(shown.standardError)")
        let inspected = await widgets(["--plugins", plugins.path, "list", "org.example.steps"])
        #expect(inspected.standardOutput.contains("parameter alsoWalked \"Also Walked\": entity Trail, optional, a list of at most 2"), "\(inspected.standardOutput)")
    }

    /// Runtime bug 1: a provider completing on the main queue or from a main-actor task answers in
    /// a worker process, as it does in the host's own process.
    @Test(.timeLimit(.minutes(15)), arguments: Mode.allCases)
    func completionsOnTheMainQueueAndTheMainActorAnswerInAWorker(mode: Mode) async throws {
        let plugins = try await Self.plugins(mode)
        let weather = await widgets(["--plugins", plugins.path, "timeline", "org.example.weather", "--json"])
        #expect(weather.status == 0, "\(weather.standardError)")
        #expect(try Self.json(weather)["entries"]?.arrayValue?.count == 3)
        let snapshot = await widgets(["--plugins", plugins.path, "snapshot", "org.example.main-actor"])
        #expect(snapshot.status == 0, "\(snapshot.standardError)")
        #expect(snapshot.standardOutput.contains("main actor snapshot"))
        let timeline = await widgets(["--plugins", plugins.path, "timeline", "org.example.main-actor"])
        #expect(timeline.standardOutput.contains("main actor timeline"), "\(timeline.standardError)")
    }
}

extension IOSStyleBundleTests {
    /// Runtime bug 2: emoji beside text in plain text, as `timeline` and `--log` print it.
    @Test(.timeLimit(.minutes(15))) func emojiStayWholeInPlainText() async throws {
        let plugins = try await Self.plugins(.swift6)
        let result = await widgets(["--plugins", plugins.path, "snapshot", "org.example.emoji", "--family", "systemMedium", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try #require(try Self.json(result)["entries"]?.arrayValue?.first?["text"]?.stringValue)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["🐳  whale", "🐳       whale", "🐳🐳 ab"], "columns padded by the cells they take:\n\(text)")
        #expect(!text.contains("\u{FFFD}"))
    }

    /// A Swift Charts widget as iOS code writes it: its area, line and rule drawn as paths in the
    /// plot, the y scale's values (60 to 70, as chartYScale says) at the trailing edge.
    @Test(.timeLimit(.minutes(15))) func aSwiftChartsWidgetIsDrawn() async throws {
        let plugins = try await Self.plugins(.swift6)
        let result = await widgets(["--plugins", plugins.path, "snapshot", "org.example.price-chart", "--family", "systemMedium", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let entry = try #require(try Self.json(result)["entries"]?.arrayValue?.first)
        let text = entry["text"]?.stringValue ?? ""
        #expect(text.contains("70") && text.contains("65") && text.contains("60"), "\(text)")
        #expect(entry["view"]?.jsonText.components(separatedBy: #""shape":"path""#).count ?? 0 >= 5, "grid, area, line, rule: \(entry["view"]?.jsonText ?? "")")
        let small = await widgets(["--plugins", plugins.path, "snapshot", "org.example.price-chart", "--family", "systemSmall", "--json"])
        let smallText = try #require(try Self.json(small)["entries"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(!smallText.contains("65"), "the axes hidden in the small size: \(smallText)")
    }

    /// Runtime bug 3: titles pulled up 3 points stay on their own rows in the terminal.
    @Test(.timeLimit(.minutes(15))) func aSmallNegativePaddingDoesNotDrawOverTheRowAbove() async throws {
        let plugins = try await Self.plugins(.swift6)
        let result = await widgets(["--plugins", plugins.path, "render", "org.example.emoji", "--family", "systemLarge"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        for (title, note) in [("🐳 whale", "blows"), ("🦄 unicorn", "gallops"), ("🦉 owl", "hoots")] {
            let at = try #require(rows.lastIndex(of: title), "\(title) has a row of its own:\n\(result.standardOutput)")
            #expect(rows[at + 1] == note, "\(note) right under \(title):\n\(result.standardOutput)")
        }
    }

    /// Runtime bug 4: a widget's content is inset by the family's margins (16 points: two columns,
    /// one row), unless it says `.contentMarginsDisabled()`.
    @Test(.timeLimit(.minutes(15))) func contentMarginsAreAppliedUnlessDisabled() async throws {
        let plugins = try await Self.plugins(.swift6)
        let weather = await widgets(["--plugins", plugins.path, "render", "org.example.weather"])
        let rows = weather.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[1] == "│                    │", "the top margin:\n\(weather.standardOutput)")
        #expect(rows[2].hasPrefix("│  ⌖ Lisbon"), "the leading margin:\n\(weather.standardOutput)")
        let svg = await widgets(["--plugins", plugins.path, "gallery", "--out", Fixtures.temporaryDirectory("gallery").path])
        #expect(svg.status == 0, "\(svg.standardError)")
        let flush = await widgets(["--plugins", plugins.path, "render", "org.example.main-actor"])
        let flushRows = flush.standardOutput.split(separator: "\n").map(String.init)
        #expect(flushRows[1].hasPrefix("│main actor"), "no margins:\n\(flush.standardOutput)")
    }

    /// Runtime bug 5: a provider that lets go of its completion fails the request at once, naming
    /// the widget and the method, in both provider styles; it is not a timeout.
    @Test(.timeLimit(.minutes(15))) func aDroppedCompletionFailsAtOnceNamingTheWidget() async throws {
        let plugins = try await Self.plugins(.swift6)
        for (kind, method) in [
            ("org.example.dropped", "getTimeline(in:completion:)"), ("org.example.legacy-dropped", "getTimeline(for:in:completion:)"),
        ] {
            let result = await widgets(["--plugins", plugins.path, "timeline", kind])
            #expect(result.status != 0)
            #expect(result.standardError.contains("widget \"\(kind)\""), "\(result.standardError)")
            #expect(result.standardError.contains("\(method) released its completion without calling it"), "\(result.standardError)")
            #expect(!result.standardError.contains("did not complete"), "\(result.standardError)")
            #expect(!result.standardError.contains("CONTINUATION MISUSE"), "\(result.standardError)")
        }
        let large = await widgets(["--plugins", plugins.path, "timeline", "org.example.dropped", "--family", "systemLarge"])
        #expect(large.status == 0, "the path that answers still does: \(large.standardError)")
    }

    /// Runtime bug 7: each entry's timer reads as of the entry's date; relevance prints as written;
    /// the media and photo symbols have glyphs.
    @Test(.timeLimit(.minutes(15))) func laterEntriesReadAsOfTheirDatesAndSymbolsHaveGlyphs() async throws {
        let plugins = try await Self.plugins(.swift6)
        let result = await widgets(["--plugins", plugins.path, "timeline", "org.example.timer", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let entries = try #require(try Self.json(result)["entries"]?.arrayValue)
        let firstLines = entries.compactMap { (entry: JSONValue) -> String? in entry["text"]?.stringValue?.split(separator: "\n").first.map { String($0) } }
        #expect(firstLines == ["3:00:00", "2:00:00", "1:00:00"])
        #expect(entries.first?["relevance"]?["score"] == .number(0.99))
        #expect(entries.first?["text"]?.stringValue?.hasSuffix("▶  ⏸  ▨  ⟳  ◉") == true, "\(entries.first?["text"] ?? .null)")
        let text = await widgets(["--plugins", plugins.path, "timeline", "org.example.timer"])
        #expect(text.standardOutput.contains("relevance 0.99\n"), "\(text.standardOutput)")
        #expect(!text.standardOutput.contains("□"))
    }

    /// Runtime bug 8: `UserDefaults(suiteName: "group.…")` is shared: what the app writes (without
    /// `synchronize()`) the widget's worker reads, and what one worker writes the next reads.
    @Test(.timeLimit(.minutes(15))) func anAppGroupsDefaultsAreSharedBetweenTheAppAndEachWorker() async throws {
        let plugins = try await Self.plugins(.swift6)
        let app = try await Self.products.value.get().appendingPathComponent("ios-app").path
        let config = Fixtures.temporaryDirectory("config")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        func ask() async throws -> String {
            let result = await widgets(
                ["--plugins", plugins.path, "timeline", "org.example.shared-counter", "--json"], extraEnvironment: ["XDG_CONFIG_HOME": config.path])
            #expect(result.status == 0, "\(result.standardError)")
            return try Self.json(result)["entries"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        }
        #expect(await runProcess(app, ["41"], environment: environment).status == 0)
        #expect(try await ask() == "app 41\nrequests 1")
        #expect(try await ask() == "app 41\nrequests 2", "the first worker's write reached the second")
        #expect(await runProcess(app, ["42"], environment: environment).status == 0)
        #expect(try await ask() == "app 42\nrequests 3")
    }
}

extension IOSStyleBundleTests {
    /// `#Preview(as:) { … } timeline: { … }` in either language mode: the author's entries, drawn by
    /// the widget's own view.
    @Test(.timeLimit(.minutes(15)), arguments: Mode.allCases)
    func previewsWrittenWithTheMacroAreDrawn(mode: Mode) async throws {
        let plugins = try await Self.plugins(mode)
        let weather = await widgets(["--plugins", plugins.path, "preview", "org.example.weather", "--json"])
        #expect(weather.status == 0, "\(weather.standardError)")
        let previews = try #require(try Self.json(weather)["previews"]?.arrayValue)
        #expect(previews.count == 1)
        #expect(previews.first?["family"] == .string("systemSmall"))
        let texts = previews.first?["entries"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.count == 2)
        #expect(texts.first?.hasPrefix("⌖ Porto\n17°\n☂") == true, "\(texts)")
        #expect(texts.last?.hasPrefix("⌖ Faro\n26°\n☀") == true, "\(texts)")
        let steps = await widgets(["--plugins", plugins.path, "preview", "org.example.steps"])
        #expect(steps.standardOutput.contains("7000"), "\(steps.standardOutput)\(steps.standardError)")
    }
}

extension IOSStyleBundleTests {
    /// The catalog widget (Tests/iOSStyleBundle/Widgets/CatalogWidget.swift) uses the modifiers and
    /// types issue 19 lists; it builds in both modes (its signatures hold), its `timelineProvider:`
    /// preview is drawn from the provider's timeline (not its placeholder, "Your trip"), and its
    /// `UIImage(data:)` picture is an image in the SVG.
    @Test(.timeLimit(.minutes(15)), arguments: Mode.allCases)
    func theCatalogOfIOSModifiersDrawsItsPreviewAndItsPicture(mode: Mode) async throws {
        let plugins = try await Self.plugins(mode)
        let preview = await widgets(["--plugins", plugins.path, "preview", "org.example.catalog", "--json"])
        #expect(preview.status == 0, "\(preview.standardError)")
        let previews = try #require(try Self.json(preview)["previews"]?.arrayValue)
        #expect(previews.count == 1)
        #expect(previews.first?["name"] == .string("Trip"), "\(previews)")
        #expect(previews.first?["family"] == .string("systemMedium"))
        let text = previews.first?["entries"]?.arrayValue?.first?["text"]?.stringValue ?? ""
        // The label's icon, its title, and the picture (▨ in plain text).
        #expect(text.hasPrefix("⛍ Lisbon → Porto  ▨\nNext stop\nCoimbra\n"), "the timeline's entry: \(text)")
        #expect(text.contains("40%"), "the specifier's interpolation: \(text)")

        let out = Fixtures.temporaryDirectory("catalog-gallery")
        let gallery = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path])
        #expect(gallery.status == 0, "\(gallery.standardError)")
        let snapshot = try String(contentsOf: out.appendingPathComponent("org.example.catalog.systemMedium.snapshot.svg"), encoding: .utf8)
        #expect(snapshot.contains("<image ") && snapshot.contains("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAAC"), "\(snapshot.prefix(400))")
        #expect(snapshot.contains("Seat 12A"))
    }

    /// OSLog's `Logger`, as the widget writes it: its messages come out of the worker under the
    /// bundle's name, info shown only when asked for.
    @Test(.timeLimit(.minutes(15))) func loggerMessagesNameTheirBundle() async throws {
        let plugins = try await Self.plugins(.swift6)
        let quiet = await widgets(["--plugins", plugins.path, "timeline", "org.example.weather"])
        #expect(!quiet.standardError.contains("building the timeline"), "\(quiet.standardError)")
        let told = await widgets(["--plugins", plugins.path, "timeline", "org.example.weather"], extraEnvironment: ["WIDGETS_LOG": "info"])
        #expect(told.standardError.contains("widgets: info: libIOSWidgets6.so: Weather: building the timeline\n"), "\(told.standardError)")
        // -v asks as WIDGETS_LOG does (named in any case), for a bundle in a worker and in the host's process.
        for isolation in ["process", "queue"] {
            let verbose = await widgets(["--plugins", plugins.path, "-v", "timeline", "org.example.weather", "--isolation", isolation])
            #expect(verbose.standardError.contains("Weather: building the timeline\n"), "\(isolation): \(verbose.standardError)")
        }
        let upper = await widgets(["--plugins", plugins.path, "timeline", "org.example.weather"], extraEnvironment: ["WIDGETS_LOG": "INFO"])
        #expect(upper.standardError.contains("Weather: building the timeline\n"), "\(upper.standardError)")
    }
}
