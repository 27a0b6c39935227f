import Foundation
import Glibc
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetWire

/// Configurable widgets end to end: the sample bundles (both configuration APIs) through the real
/// CLI, each test with its own state directory and data home.
@Suite struct ConfigurationTests {
    let plugins = Fixtures.directory(["libGameWidgets.so", "libCryptoWidgets.so"]).path
    let state = Fixtures.temporaryDirectory("state")
    let data = Fixtures.temporaryDirectory("data")

    func run(_ arguments: [String], environment: [String: String] = [:]) async -> ProcessResult {
        await widgets(["--plugins", plugins] + arguments + stateArguments(arguments), dataHome: data, extraEnvironment: environment)
    }

    /// --state-dir goes to the commands that take it.
    func stateArguments(_ arguments: [String]) -> [String] {
        ["add", "instances", "configure", "remove", "snapshot", "timeline"].contains(arguments.first ?? "") ? ["--state-dir", state.path] : []
    }

    var stateFile: URL { state.appendingPathComponent("instances.json") }

    func writePrices() throws {
        let container = data.appendingPathComponent("widgets/groups/group.org.widgets.crypto")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        try #"{"updated": "2026-11-21T09:00:00Z", "prices": {"BTC": 91234.56, "ETH": 3051.2, "LTC": 88.14}}"#
            .write(to: container.appendingPathComponent("prices.json"), atomically: true, encoding: .utf8)
    }

    /// The game's shared state with only these characters.
    func writeGame(characters: [String]) throws {
        let container = data.appendingPathComponent("widgets/groups/group.org.widgets.game")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        let list = characters.map { #"{"name": "\#($0)", "health": 50, "level": 1}"# }.joined(separator: ",")
        try #"{"status": "x", "characters": [\#(list)], "scores": [], "updated": "2026-11-21T09:00:00Z"}"#
            .write(to: container.appendingPathComponent("game.json"), atomically: true, encoding: .utf8)
    }

    @Test func bundlesExportEachParameterWithTypeDefaultOptionalityAndOptions() async throws {
        let listed = await run(["list", "--json"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let document = try JSONValue.parse(listed.standardOutput)
        let widgets = (document["bundles"]?.arrayValue ?? []).flatMap { $0["widgets"]?.arrayValue ?? [] }
        func schema(_ kind: String) throws -> ConfigurationSchema {
            let widget = try #require(widgets.first { $0["kind"] == .string(kind) })
            return try ConfigurationSchema(json: try #require(widget["configurationSchema"]))
        }
        let crypto = try schema("org.widgets.crypto.price")
        #expect(crypto.title == "Select Coin")
        #expect(crypto.description == "Selects the coin to show the price of.")
        #expect(
            crypto.parameters == [
                ParameterSchema(
                    name: "coin", title: "Coin", type: .enumeration, typeName: "Coin", isOptional: false, defaultValue: .string("BTC"),
                    cases: [
                        ParameterOption(value: .string("BTC"), title: "Bitcoin"), ParameterOption(value: .string("ETH"), title: "Ethereum"),
                        ParameterOption(value: .string("LTC"), title: "Litecoin"),
                    ]),
                ParameterSchema(name: "decimals", title: "Decimals", type: .integer, isOptional: false, defaultValue: .number(2), range: 0...8),
                ParameterSchema(name: "showsUpdateTime", title: "Show Update Time", type: .boolean, isOptional: false, defaultValue: .bool(true)),
            ])
        #expect(
            try schema("com.mygame.character-detail").parameters == [
                ParameterSchema(
                    name: "character", title: "Character", type: .entity, typeName: "Character", isOptional: true, hasDynamicOptions: true)
            ])
        #expect(
            try schema("com.mygame.character-detail-sirikit").parameters == [
                ParameterSchema(
                    name: "character", title: "Character", type: .entity, typeName: "GameCharacter", isOptional: true,
                    hasDynamicOptions: true)
            ])
        #expect(widgets.first { $0["kind"] == .string("com.mygame.game-status") }?["configurationSchema"] == .null)
    }

    @Test func addConfigureAndRequestSendTheInstancesConfigurationAcrossRestarts() async throws {
        try writePrices()
        let added = await run(["add", "org.widgets.crypto.price", "--family", "systemMedium", "--set", "coin=ETH"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "price-1\n")
        let second = await run(["add", "org.widgets.crypto.price"])
        #expect(second.standardOutput == "price-2\n", "a second instance of the same kind, with the default coin")

        // Each command is a new process: what it reads was saved by the ones before.
        let listed = await run(["instances", "--json"])
        #expect(
            try JSONValue.parse(listed.standardOutput)
                == JSONValue.parse(
                    #"[{"id":"price-1","kind":"org.widgets.crypto.price","family":"systemMedium","configuration":{"coin":"ETH","decimals":2,"showsUpdateTime":true}},{"id":"price-2","kind":"org.widgets.crypto.price","family":"systemSmall","configuration":{"coin":"BTC","decimals":2,"showsUpdateTime":true}}]"#
                ))
        let timeline = await run(["timeline", "--instance", "price-1", "--json"])
        #expect(timeline.status == 0, "\(timeline.standardError)")
        #expect(timeline.standardOutput.contains(#""ETH""#) && timeline.standardOutput.contains("3,051.20"), "\(timeline.standardOutput)")
        #expect(timeline.standardOutput.contains(#""family":"systemMedium""#))
        let document = try JSONValue.parse(timeline.standardOutput)
        let policy = try #require(document["policy"])
        #expect(policy["kind"] == .string("after"))
        // The CLI's JSON gives dates in ISO 8601.
        let iso = ISO8601DateFormatter()
        let shown = try #require(document["entries"]?.arrayValue?.first?["date"]?.stringValue.flatMap(iso.date(from:)))
        let next = try #require(policy["date"]?.stringValue.flatMap(iso.date(from:)))
        #expect(next.timeIntervalSince(shown) == 900, "the next price in 15 minutes")

        let configured = await run(["configure", "price-1", "--set", "coin=LTC"])
        #expect(configured.status == 0, "\(configured.standardError)")
        #expect(configured.standardOutput == "price-1: coin=LTC, decimals=2, showsUpdateTime=true\n")
        let snapshot = await run(["snapshot", "--instance", "price-1"])
        #expect(snapshot.standardOutput.contains("LTC") && snapshot.standardOutput.contains("$88.14"), "\(snapshot.standardOutput)")
        let other = await run(["snapshot", "--instance", "price-2"])
        #expect(other.standardOutput.contains("BTC"), "each instance keeps its own configuration")

        let removed = await run(["remove", "price-1"])
        #expect(removed.status == 0)
        let text = await run(["instances"])
        #expect(
            text.standardOutput
                == "ID       KIND                      FAMILY       CONFIGURATION\nprice-2  org.widgets.crypto.price  systemSmall  coin=BTC, decimals=2, showsUpdateTime=true\n")
    }

    @Test func bothConfigurationAPIsReceiveTheChosenCharacter() async throws {
        for kind in ["com.mygame.character-detail", "com.mygame.character-detail-sirikit"] {
            // A choice in letters of another case is that choice, when it names one only.
            let added = await run(["add", kind, "--set", "character=spouty"])
            #expect(added.status == 0, "\(added.standardError)")
            let id = added.standardOutput.trimmingCharacters(in: .newlines)
            let timeline = await run(["timeline", "--instance", id])
            #expect(timeline.status == 0, "\(timeline.standardError)")
            #expect(timeline.standardOutput.contains("🐳 Spouty") && timeline.standardOutput.contains("Deep Sea Goer"), "\(timeline.standardOutput)")
            #expect(timeline.standardOutput.contains("reload never"))
        }
    }

    @Test func optionsComeFromFixedCasesOrTheProvidersQueryOrHandler() async throws {
        let coins = await run(["options", "org.widgets.crypto.price", "coin"])
        #expect(coins.standardOutput == "BTC  Bitcoin   (default)\nETH  Ethereum\nLTC  Litecoin\n")
        let entities = await run(["options", "com.mygame.character-detail", "character"])
        #expect(entities.standardOutput == "Power Panda  🐼 Power Panda  (default)\nUnipony      🦄 Unipony\nSpouty       🐳 Spouty\n")
        let handler = await run(["options", "com.mygame.character-detail-sirikit", "character"])
        #expect(handler.standardOutput == "Power Panda  Power Panda\nUnipony      Unipony\nSpouty       Spouty\n")
        // The options follow the app's data: a character the game drops is no longer offered.
        try writeGame(characters: ["Unipony"])
        let fewer = await run(["options", "com.mygame.character-detail", "character", "--json"])
        #expect(
            try JSONValue.parse(fewer.standardOutput)
                == JSONValue.parse(#"{"options":[{"value":"Unipony","title":"🦄 Unipony"}],"default":"Unipony"}"#))
        let noOptions = await run(["options", "com.mygame.game-status", "x"])
        #expect(noOptions.status == 1)
        #expect(noOptions.standardError == "widgets: error: widget \"com.mygame.game-status\" is static: it has no parameters\n")
    }

    @Test func recommendationsAreConfigurations() async throws {
        let result = await run(["recommendations", "org.widgets.crypto.price"])
        #expect(
            result.standardOutput
                == "BTC price  coin=BTC, decimals=2, showsUpdateTime=true\nETH price  coin=ETH, decimals=2, showsUpdateTime=true\nLTC price  coin=LTC, decimals=2, showsUpdateTime=true\n")
        let siriKit = await run(["recommendations", "com.mygame.character-detail-sirikit"])
        #expect(siriKit.status == 0, "\(siriKit.standardError)")
        #expect(siriKit.standardOutput == "Power Panda  character=Power Panda\nUnipony      character=Unipony\nSpouty       character=Spouty\n")
        let characters = await run(["recommendations", "com.mygame.character-detail", "--json"])
        #expect(
            try JSONValue.parse(characters.standardOutput)["recommendations"]?.arrayValue?.first
                == JSONValue.parse(#"{"description":"Power Panda","configuration":{"character":"Power Panda"}}"#))
    }

    @Test func anEntityThatNoLongerResolvesIsADiagnosticNamingInstanceAndParameter() async throws {
        for (kind, reason) in [
            ("com.mygame.character-detail", #"no Character has the identifier "Spouty" any more (entities(for:) returned none)"#),
            ("com.mygame.character-detail-sirikit", #"no GameCharacter has the identifier "Spouty" any more (its options handler no longer offers it)"#),
        ] {
            try writeGame(characters: ["Power Panda", "Unipony", "Spouty"])
            let added = await run(["add", kind, "--set", "character=Spouty"])
            let id = added.standardOutput.trimmingCharacters(in: .newlines)
            try writeGame(characters: ["Power Panda", "Unipony"])
            let timeline = await run(["timeline", "--instance", id])
            #expect(timeline.status == 1)
            #expect(
                timeline.standardError
                    == "widgets: error: instance \(id): widget \"\(kind)\" (libGameWidgets.so): timeline failed: parameter \"character\": \(reason)\n")
        }
    }

    @Test func badInputIsRefusedWithALineAndChangesNothing() async throws {
        let first = await run(["add", "org.widgets.crypto.price", "--set", "coin=ETH"])
        #expect(first.status == 0)
        let saved = try Data(contentsOf: stateFile)
        let cases: [([String], String)] = [
            (["add", "org.widgets.nope"], #"widgets: error: widget "org.widgets.nope": no such widget kind; known kinds: "#),
            (["add", "org.widgets.crypto.price", "--set", "coins=ETH"], #"widgets: error: widget "org.widgets.crypto.price" has no parameter "coins" (did you mean coin?) (parameters: coin, decimals, showsUpdateTime)"#),
            (["add", "org.widgets.crypto.price", "--set", "decimals=two"], #"widgets: error: widget "org.widgets.crypto.price": parameter "decimals": 'two' is not an integer"#),
            (["add", "org.widgets.crypto.price", "--set", "showsUpdateTime=maybe"], #"widgets: error: widget "org.widgets.crypto.price": parameter "showsUpdateTime": 'maybe' is not true or false"#),
            (["configure", "price-1", "--set", "decimals=2.5"], #"widgets: error: widget "org.widgets.crypto.price": parameter "decimals": '2.5' is not an integer"#),
            (["configure", "price-1", "--set", "decimals=12"], #"widgets: error: widget "org.widgets.crypto.price": parameter "decimals": 12 is out of range: from 0 to 8"#),
            (["configure", "price-1", "--set", "coins=ETH"], #"widgets: error: widget "org.widgets.crypto.price" has no parameter "coins" (did you mean coin?) (parameters: coin, decimals, showsUpdateTime)"#),
            (["configure", "price-1", "--set", "coin"], "widgets: error: 'coin' is not NAME=VALUE"),
            (["add", "com.mygame.character-detail-sirikit", "--set", "character=Nobody"], #"widgets: error: widget "com.mygame.character-detail-sirikit": parameter "character": 'Nobody' is not one of its choices: Power Panda, Unipony, Spouty"#),
            (["add", "org.widgets.crypto.price", "--family", "systemLarge"], #"widgets: error: widget "org.widgets.crypto.price" (libCryptoWidgets.so): does not support systemLarge; it supports systemSmall, systemMedium"#),
            (["add", "org.widgets.crypto.price", "--set", "coin=DOGE"], #"widgets: error: widget "org.widgets.crypto.price": parameter "coin": 'DOGE' is not one of its choices: BTC (Bitcoin), ETH (Ethereum), LTC (Litecoin)"#),
            (["add", "org.widgets.crypto.price", "--set", "coin"], "widgets: error: 'coin' is not NAME=VALUE"),
            (["add", "org.widgets.crypto.price", "--set", "=BTC"], "widgets: error: '=BTC' is not NAME=VALUE: the name is empty or has spaces"),
            (["add", "org.widgets.crypto.price", "--set", "coin="], #"widgets: error: widget "org.widgets.crypto.price": parameter "coin": needs a value (it is not optional)"#),
            (["add", "com.mygame.character-detail", "--set", "character=Nobody"], #"widgets: error: widget "com.mygame.character-detail": parameter "character": 'Nobody' is not one of its choices: Power Panda (🐼 Power Panda), Unipony (🦄 Unipony), Spouty (🐳 Spouty)"#),
            (["add", "com.mygame.game-status", "--set", "x=1"], #"widgets: error: widget "com.mygame.game-status" is static: it has no parameter "x" (it has none)"#),
            (["add", "org.widgets.crypto.price", "--set", "coin=ET"], #"widgets: error: widget "org.widgets.crypto.price": parameter "coin": 'ET' is not one of its choices (did you mean ETH?): BTC (Bitcoin), ETH (Ethereum), LTC (Litecoin)"#),
            (["add", "org.widgets.crypto.prise"], #"widgets: error: widget "org.widgets.crypto.prise": no such widget kind (did you mean org.widgets.crypto.price?); known kinds: "#),
            (["configure", "price-1", "--set", "coin=XRP"], #"widgets: error: widget "org.widgets.crypto.price": parameter "coin": 'XRP' is not one of its choices: BTC (Bitcoin), ETH (Ethereum), LTC (Litecoin)"#),
            (["configure", "price-9", "--set", "coin=BTC"], #"widgets: error: no instance "price-9"; instances: price-1"#),
            (["remove", "price-9"], #"widgets: error: no instance "price-9"; instances: price-1"#),
        ]
        for (arguments, message) in cases {
            let result = await run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.hasPrefix(message), "\(arguments): \(result.standardError)")
            #expect(try Data(contentsOf: stateFile) == saved, "\(arguments) changed the saved state")
        }
        let usage = await run(["add", "org.widgets.crypto.price", "--family", "huge"])
        #expect(usage.status == 2)
    }

    @Test func aCorruptStateFileIsReportedAndKeptAsideNeverEmptied() async throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"instances\": [".utf8).write(to: stateFile)
        let result = await run(["instances"])
        #expect(result.status == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        let aside = try #require(names.first { $0.hasPrefix("instances.json.corrupt-") })
        #expect(
            result.standardError
                == "widgets: error: the instance state \(stateFile.path) is corrupt (invalid JSON at byte 29: unexpected end of input); it was kept as \(state.path)/\(aside), and nothing was changed. Repair it and move it back, or run the command again to start with no instances\n")
        #expect(try String(contentsOf: state.appendingPathComponent(aside), encoding: .utf8) == "{\"version\": 1, \"instances\": [")
        #expect(!FileManager.default.fileExists(atPath: stateFile.path))
    }

    /// Ids never repeat, even when the state starts afresh after the file was set aside as corrupt:
    /// the set-aside copy's ids stay its own.
    @Test func idsDoNotRepeatAfterTheStateIsSetAside() async throws {
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=ETH"])).standardOutput == "price-1\n")
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=LTC"])).standardOutput == "price-2\n")
        try Data("{\"version\": 1, \"instances\": [".utf8).write(to: stateFile)
        #expect((await run(["instances"])).status == 1)
        let again = await run(["add", "org.widgets.crypto.price", "--set", "coin=BTC"])
        #expect(again.standardOutput == "price-3\n", "\(again.standardError)")
    }

    /// A counter set by hand past what ids may be: one clear error, nothing changed (it was a trap).
    @Test func aCounterPastTheLargestIdIsAnErrorNotACrash() async throws {
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=ETH"])).standardOutput == "price-1\n")
        let counter = stateFile.deletingLastPathComponent().appendingPathComponent("instances.next")
        for text in ["9223372036854775807\n", "99999999999999999999999\n"] {
            try text.write(to: counter, atomically: true, encoding: .utf8)
            let refused = await run(["add", "org.widgets.crypto.price", "--set", "coin=LTC"])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("no id is left: the next instance number, 9007199254740992, is beyond the largest (9007199254740991)"), "\(refused.standardError)")
            #expect((await run(["instances"])).standardOutput.contains("price-1"), "what was saved is kept")
        }
        try "41\n".write(to: counter, atomically: true, encoding: .utf8)
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=LTC"])).standardOutput == "price-41\n")
    }

    @Test func aHostKilledWhileSavingLosesNothingSaved() async throws {
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=ETH"])).status == 0)
        let saved = try Data(contentsOf: stateFile)
        // The next save stops halfway through writing its temporary file; then it is killed.
        let environment = widgetsEnvironment(dataHome: data, extra: ["WIDGETS_FAILPOINT": "save-mid-write"])
        let errors = try ClosingPipe()
        let process = try ChildProcess(
            Fixtures.widgetsExecutable, ["--plugins", plugins, "add", "org.widgets.crypto.price", "--set", "coin=LTC", "--state-dir", state.path],
            environment: environment, standardError: errors.write)
        errors.closeWriting()
        let reached = await blocking { () -> Bool in
            var text = ""
            var byte: UInt8 = 0
            while read(errors.read, &byte, 1) == 1 {
                text += String(decoding: [byte], as: UTF8.self)
                if text.contains("failpoint save-mid-write reached") { return true }
            }
            return false
        }
        #expect(reached)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix(".instances.json.tmp-") }
        #expect(leftovers.count == 1, "the half-written temporary file is there")
        process.signal(SIGKILL)
        await blocking { process.waitForExit() }
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(try Data(contentsOf: stateFile) == saved, "the saved state is whole")
        let listed = await run(["instances"])
        #expect(listed.standardOutput.contains("price-1") && !listed.standardOutput.contains("LTC"))
        #expect((await run(["add", "org.widgets.crypto.price", "--set", "coin=LTC"])).standardOutput == "price-2\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix(".instances.json.tmp-") }.isEmpty)
    }

    /// A refusal has a form's wording too: the parameter's title, and its range.
    @Test func aRefusalSaysItInAPersonsTermsToo() {
        let decimals = ParameterSchema(name: "decimals", title: "Decimals", type: .integer, isOptional: false, range: 0...8)
        do {
            _ = try ConfigurationValues.value("99", for: decimals, kind: "org.widgets.crypto.price")
            Issue.record("99 was accepted")
        } catch {
            #expect(error.description == "widget \"org.widgets.crypto.price\": parameter \"decimals\": 99 is out of range: from 0 to 8")
            #expect(error.forPerson == "Decimals: 99 is out of range: from 0 to 8")
        }
    }

    @Test func valuesOfEveryTypeAreCheckedAgainstTheSchema() throws {
        func value(_ text: String, _ type: ParameterType, optional: Bool = false) throws -> JSONValue {
            try ConfigurationValues.value(
                text, for: ParameterSchema(name: "p", title: "P", type: type, isOptional: optional), kind: "k")
        }
        func refusal(_ text: String, _ type: ParameterType) -> String {
            do {
                _ = try value(text, type)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(try value("hello", .string) == .string("hello"))
        #expect(try value("42", .integer) == .number(42))
        #expect(refusal("4.5", .integer) == #"widget "k": parameter "p": '4.5' is not an integer"#)
        #expect(try value("4.5", .double) == .number(4.5))
        #expect(refusal("four", .double) == #"widget "k": parameter "p": 'four' is not a number"#)
        #expect(try value("true", .boolean) == .bool(true))
        #expect(refusal("yes", .boolean) == #"widget "k": parameter "p": 'yes' is not true or false"#)
        #expect(try value("2026-11-21", .date) == .string("2026-11-21T00:00:00Z"))
        #expect(try value("2026-11-21T09:30:00Z", .date) == .string("2026-11-21T09:30:00Z"))
        #expect(refusal("tomorrow", .date) == #"widget "k": parameter "p": 'tomorrow' is not a date (ISO 8601: 2026-11-21 or 2026-11-21T09:30:00Z)"#)
        #expect(try value("https://example.com/x", .url) == .string("https://example.com/x"))
        #expect(refusal("example.com", .url) == #"widget "k": parameter "p": 'example.com' is not an absolute URL (such as https://example.com)"#)
        #expect(try value("", .integer, optional: true) == .null)
    }
}

extension ConfigurationTests {
    @Test func theSiriKitStyleWidgetIsConfiguredAndAskedAsTheAppIntentsOneIs() async throws {
        let added = await run(["add", "com.mygame.character-detail-sirikit", "--family", "systemMedium", "--set", "character=Unipony"])
        #expect(added.standardOutput == "character-detail-sirikit-1\n", "\(added.standardError)")
        let configured = await run(["configure", "character-detail-sirikit-1", "--set", "character=Spouty"])
        #expect(configured.status == 0, "\(configured.standardError)")
        #expect(configured.standardOutput == "character-detail-sirikit-1: character=Spouty\n")
        let snapshot = await run(["snapshot", "--instance", "character-detail-sirikit-1"])
        #expect(snapshot.status == 0, "\(snapshot.standardError)")
        #expect(snapshot.standardOutput.contains("🐳 Spouty") && snapshot.standardOutput.contains("systemMedium"), "\(snapshot.standardOutput)")
        let refused = await run(["configure", "character-detail-sirikit-1", "--set", "character=Nobody"])
        #expect(refused.status == 1)
        #expect(refused.standardError.hasPrefix(#"widgets: error: widget "com.mygame.character-detail-sirikit": parameter "character": 'Nobody' is not one of its choices"#))
        let listed = await run(["instances"])
        #expect(listed.standardOutput.contains("character=Spouty"), "the refused change changed nothing")
    }

    @Test func twoConfigureCommandsAtOnceKeepBothChanges() async throws {
        #expect((await run(["add", "org.widgets.crypto.price"])).status == 0)
        for round in 1...5 {
            // Each checks its value against the bundle (a worker process, a request) before it saves.
            async let coin = run(["configure", "price-1", "--set", round % 2 == 0 ? "coin=ETH" : "coin=LTC"])
            async let decimals = run(["configure", "price-1", "--set", "decimals=\(round)"])
            let (first, second) = await (coin, decimals)
            #expect(first.status == 0 && second.status == 0, "\(first.standardError)\(second.standardError)")
            let listed = try JSONValue.parse((await run(["instances", "--json"])).standardOutput)
            let configuration = listed.arrayValue?.first?["configuration"]
            #expect(configuration?["coin"] == .string(round % 2 == 0 ? "ETH" : "LTC"), "round \(round)")
            #expect(configuration?["decimals"] == .number(Double(round)), "round \(round)")
        }
    }

    @Test func withoutStateDirInstancesAreKeptInTheXDGStateDirectory() async throws {
        let home = Fixtures.temporaryDirectory("statehome")
        let environment = ["XDG_STATE_HOME": home.path]
        let added = await widgets(["--plugins", plugins, "add", "org.widgets.crypto.price"], dataHome: data, extraEnvironment: environment)
        #expect(added.status == 0, "\(added.standardError)")
        let file = home.appendingPathComponent("widgets/instances.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        let listed = await widgets(["instances"], dataHome: data, extraEnvironment: environment)
        #expect(listed.standardOutput.contains("price-1"))
    }

    @Test func aStateFileOfANewerVersionIsLeftAsItIs() async throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let newer = #"{"version": 2, "instances": [], "widgets": {}}"#
        try newer.write(to: stateFile, atomically: true, encoding: .utf8)
        let result = await run(["add", "org.widgets.crypto.price"])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "widgets: error: the instance state \(stateFile.path) was written by a newer version of widgets (format version 2 is not this host's 1); it was left as it is, and nothing was changed\n")
        #expect(try String(contentsOf: stateFile, encoding: .utf8) == newer)
    }

    @Test func corruptFilesFoundWithinOneSecondAreEachKept() async throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        for text in ["first [", "second ["] {
            try Data(text.utf8).write(to: stateFile)
            #expect((await run(["instances"])).status == 1)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("instances.json.corrupt-") }
        let texts = try Set(kept.map { try String(contentsOf: state.appendingPathComponent($0), encoding: .utf8) })
        #expect(texts == ["first [", "second ["])
    }

    @Test func instancesOfOneKindWithDifferentConfigurationsRunSideBySide() async throws {
        try writePrices()
        let home = HostHome()
        let environment = ["XDG_DATA_HOME": data.path]
        for coin in ["ETH", "BTC"] {
            let added = await widgets(["--plugins", plugins, "add", "org.widgets.crypto.price", "--set", "coin=\(coin)", "--state-dir", home.state.path], dataHome: data)
            #expect(added.status == 0, "\(added.standardError)")
        }
        var hostEnvironment = home.environment
        hostEnvironment.merge(environment) { $1 }
        let host = try RunningProcess(
            Fixtures.widgetsExecutable, ["--plugins", plugins, "run", "--log", "--state-dir", home.state.path], environment: hostEnvironment)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("price-1: ETH | $3,051.20") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.contains("price-2: BTC | $91,234.56") } }, "\(host.output)")
        // Reconfigured while it runs: that instance alone changes.
        let changed = await widgets(
            ["--plugins", plugins, "configure", "price-2", "--set", "coin=LTC", "--set", "decimals=0", "--state-dir", home.state.path], dataHome: data,
            extraEnvironment: ["XDG_RUNTIME_DIR": home.runtime.path])
        #expect(changed.status == 0, "\(changed.standardError)")
        #expect(await blocking { host.waitForLine { $0.contains("price-2: LTC | $88 |") } }, "\(host.output)")
        #expect(!host.output.split(separator: "\n").contains { $0.contains(" price-1: ") && !$0.contains("price-1: loading") && !$0.contains("ETH") })
        #expect(await blocking { host.terminate() } == 0)
    }
}
