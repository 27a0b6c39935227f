import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetRendering
import WidgetWire

/// The sample bundles, built by SwiftPM from Plugins/, loaded through the real loader.
@Suite struct SampleBundleTests {
    /// In-process requests go only to providers that read no user data; the game's, which read the
    /// shared container, run through the CLI with a private XDG_DATA_HOME.
    static let registry = WidgetRegistry.load(
        searchPath: [Fixtures.directory(["libGameWidgets.so", "libSystemWidgets.so", "libHostInfo.so"]).path])

    @Test func samplesLoadInOrderWithTheirDescriptors() async throws {
        #expect(Self.registry.problems.isEmpty, "\(Self.registry.problems)")
        #expect(
            Self.registry.widgets.map(\.kind) == [
                "com.mygame.game-status", "com.mygame.leaderboard", "com.mygame.character-detail",
                "com.mygame.character-detail-sirikit", "org.widgets.host-info", "org.widgets.system.clock",
                "org.widgets.system.load", "org.widgets.system.memory", "org.widgets.system.uptime",
            ])
        let status = try #require(Self.registry.widget(kind: "com.mygame.game-status"))
        #expect(status.displayName == "Game Status")
        #expect(status.description == "Shows an overview of your game status")
        #expect(status.families == [.systemSmall, .systemMedium])
        #expect(status.bundle.name == "Game", "the name its export line gives")
        #expect(status.bundle.metadata.version == "1.0.0")
        #expect(status.bundle.builtWith == Toolchain.current)
        #expect(Self.registry.widget(kind: "org.widgets.host-info")?.bundle.builtWith == "c")
    }

    @Test func clockTimelineHasAnEntryPerMinuteAndReloadsAtEnd() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "org.widgets.system.clock")
        #expect(timeline.entries.count == 60)
        #expect(zip(timeline.entries, timeline.entries.dropFirst()).allSatisfy { $1.date - $0.date == 60 })
        #expect(timeline.entries[0].date.truncatingRemainder(dividingBy: 60) == 0)
        #expect(timeline.policy == .atEnd)
        let inline = try await Self.registry.request(.snapshot, kind: "org.widgets.system.clock", family: .accessoryInline)
        #expect(inline.entries[0].view.view == "text", "the inline family shows only the time")
    }

    @Test func loadWidgetCompletesLateFromAnotherThreadWithAFiveMinutePolicy() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "org.widgets.system.load")
        let entry = try #require(timeline.entries.first)
        #expect(timeline.policy == .after(entry.date + 300))
        let lines = PlainTextRenderer.lines(entry.view)
        #expect(lines.first == "Load")
        #expect(lines.contains { $0.hasPrefix("CPU ") && $0.hasSuffix("%") })
    }

    @Test func memoryAndUptimeReadProc() async throws {
        let memory = try await Self.registry.request(.snapshot, kind: "org.widgets.system.memory")
        #expect(PlainTextRenderer.lines(memory.entries[0].view).last?.contains("GiB free of") == true)
        let uptime = try await Self.registry.request(.timeline, kind: "org.widgets.system.uptime")
        #expect(uptime.entries.count == 30)
        #expect(uptime.policy == .atEnd)
    }

    @Test func placeholderIsMarkedRedactedAndPreview() async throws {
        let placeholder = try await Self.registry.request(.placeholder, kind: "com.mygame.leaderboard", family: .systemMedium)
        let root = placeholder.entries[0].view
        #expect(root.modifier("redacted") == .string("placeholder"))
        // The sample board, five rows for the medium family.
        #expect(PlainTextRenderer.lines(root) == ["Leaderboard", "1. ada  4200", "2. grace  3900", "3. linus  3100", "4. ken  2800", "5. dennis  2600"])
    }

    @Test func nestedEntryTypeCarriesItsRelevance() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let result = await widgets(["--plugins", plugins.path, "snapshot", "com.mygame.leaderboard", "--json"])
        #expect(result.status == 0)
        let entry = try #require(JSONValue.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["entries"]?.arrayValue?.first)
        #expect(entry["relevance"] == .object(JSONObject([("score", .number(1)), ("duration", .number(0))])))
        #expect(entry["text"]?.stringValue?.split(separator: "\n").count == 4, "title and three rows in the small family")
    }

    @Test func cBundleAnswersPerFamily() async throws {
        let inline = try await Self.registry.request(.timeline, kind: "org.widgets.host-info", family: .accessoryInline)
        #expect(inline.entries[0].view.view == "text")
        let small = try await Self.registry.request(.timeline, kind: "org.widgets.host-info")
        #expect(small.entries[0].view.view == "vstack")
        #expect(small.entries[0].view.modifier("padding") == nil, "the system's content margins inset it, as on iOS 17")
        #expect(small.policy == .after(small.entries[0].date + 3600))
    }

    /// Installed and run for the first time, with nothing saved: the samples show what they are
    /// for, not errors. The crypto widget puts sample prices in its container; the game's Heal
    /// button heals in the new game its widgets started, with no `game-app reset` first.
    @Test func theSamplesWorkOnAFirstRunWithNothingSaved() async throws {
        let home = HostHome()
        let plugins = Fixtures.directory(["libGameWidgets.so", "libCryptoWidgets.so"])
        func cli(_ arguments: [String]) async -> ProcessResult { await home.cli(["--plugins", plugins.path] + arguments + ["--state-dir", home.state.path]) }
        let prices = await cli(["timeline", "org.widgets.crypto.price"])
        #expect(prices.status == 0)
        #expect(prices.standardOutput.contains("91,234.56") && !prices.standardOutput.contains("no prices"), "\(prices.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: home.data.path + "/widgets/groups/group.org.widgets.crypto/prices.json"))
        let added = await cli(["add", "com.mygame.character-detail", "--family", "systemMedium"])
        #expect(added.status == 0, "\(added.standardError)")
        let id = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let healed = await cli(["tap", id, "--button", "1"])
        #expect(healed.status == 0, "\(healed.standardOutput)\(healed.standardError)")
        #expect(!healed.standardError.contains("failed"), "\(healed.standardError)")
        let game = try String(contentsOfFile: home.data.path + "/widgets/groups/group.org.widgets.game/game.json", encoding: .utf8)
        #expect(game.contains("\"health\" : 90"), "Power Panda healed from 80: \(game)")
    }

    /// The game app writes into the shared container; the widget reads it, in another process.
    @Test func gameWidgetsShowWhatTheGameAppWrote() async throws {
        let data = Fixtures.temporaryDirectory("data")
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let environment = widgetsEnvironment(dataHome: data)  // its runtime directory: no host runs there
        // A first run, nothing saved: the widget starts a new game, which the app then sees.
        let before = await widgets(["--plugins", plugins.path, "snapshot", "com.mygame.game-status"], dataHome: data)
        #expect(before.status == 0)
        #expect(before.standardOutput.contains("Your party is resting at the inn"), "\(before.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: "\(data.path)/widgets/groups/group.org.widgets.game/game.json"))

        #expect(await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: environment).status == 0)
        #expect(await runProcess(Fixtures.gameAppExecutable, ["status", "Boss fight in 5 minutes"], environment: environment).status == 0)
        #expect(await runProcess(Fixtures.gameAppExecutable, ["health", "Unipony", "12"], environment: environment).status == 0)
        let bad = await runProcess(Fixtures.gameAppExecutable, ["health", "Nobody", "12"], environment: environment)
        #expect(bad.status == 1)
        #expect(bad.standardError == "game-app: no character named 'Nobody' (characters: Power Panda, Unipony, Spouty)\n")

        let after = await widgets(["--plugins", plugins.path, "timeline", "com.mygame.game-status", "--family", "systemMedium"], dataHome: data)
        #expect(after.status == 0)
        let lines = after.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("com.mygame.game-status · systemMedium · timeline · 1 entry · reload after "))
        #expect(Array(lines.dropFirst(2)) == ["  Game Status", "  Boss fight in 5 minutes", "  Power Panda  ♥ 80", "  Unipony  ♥ 12", "  Spouty  ♥ 100"])
    }
}
