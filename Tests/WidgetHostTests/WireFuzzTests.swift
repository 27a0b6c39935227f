import Foundation
import Testing
import WidgetABI
import WidgetSupport
import WidgetTestSupport
import WidgetWire

@testable import WidgetHost

/// The wire formats fuzzed: a provider's timeline JSON, the messages between host and worker (a
/// bundle may write on its worker's channel), and control requests. Valid input mutated (bytes
/// flipped, truncated, padded, repeated, numbers made strange, nested deep) and random bytes:
/// nothing crashes, and every rejection is one line, short enough to read. WIDGETS_FUZZ=3000 runs
/// more cases than the suite's.
@Suite struct WireFuzzTests {
    /// A rejection as a person reads it: one line, printable, not a wall of text.
    func isReadable(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        !message.isEmpty && !message.hasControlCharacters && message.utf8.count <= 2500
    }

    static let timeline = Array(
        #"""
        {"entries":[{"date":1800000000,"relevance":{"score":0.5,"duration":60},"view":{"view":"vstack","spacing":4,"children":[
        {"view":"text","text":"Zürich 21°","modifiers":[{"font":{"style":"headline"}},{"foregroundStyle":"blue/0.5"}]},
        {"view":"text","date":1800000060,"dateStyle":"timer"},{"view":"gauge","value":0.4,"label":"x"},
        {"view":"image","systemName":"cloud.sun"}]}},{"date":1800000900,"view":{"view":"text","text":"later"}}],
        "policy":{"kind":"after","date":1800003600}}
        """#.utf8)

    @Test func timelineJSON() {
        var random = SeededGenerator(state: 20)
        for run in 0..<Fuzzing.runs(suite: 3000) {
            let input = Fuzzing.mutate(Self.timeline, &random)
            let outcome = input.withUnsafeBufferPointer { buffer in
                Result { () throws(WireFormatError) in try WireTimeline(bytes: buffer) }
            }
            if case .failure(let error) = outcome {
                #expect(isReadable(error.description), "run \(run): \(error.description.debugDescription)")
            }
        }
    }

    static var messages: [[UInt8]] {
        let request = WorkerRequest(
            id: 7, kind: .options, widget: "com.example.weather", family: .systemMedium, isPreview: false,
            environment: .standard(for: .systemMedium), now: Date(timeIntervalSince1970: 1_800_000_000),
            due: Date(timeIntervalSince1970: 1_800_000_002), parameter: "city", configuration: Array(#"{"city":"Bern"}"#.utf8))
        let hello = WorkerHello(
            bundle: BundleDescription(
                name: "Weather", builtWith: "c", abiVersion: .current, memoryLimit: 10 << 20, urlSchemes: ["weather"],
                metadata: BundleMetadata(version: "1.0", vendor: "Example")),
            widgets: [], problems: [LoadProblem(path: "/x.so", reason: .invalidWidget, message: "widget \"a\" supports no family")])
        var helloJSON = hello.json
        helloJSON["widgets"] = .array([
            .object(
                JSONObject([
                    ("kind", .string("com.example.weather")), ("displayName", .string("Weather")), ("description", .string("Today")),
                    ("families", .array([.string("systemSmall")])), ("configuration", .string("appIntent")),
                    ("schema", try! JSONValue.parse(#"{"parameters":[{"name":"city","title":"City","type":"string","default":"Bern"}]}"#)),
                    ("slot", .number(3)),
                ]))
        ])
        return [
            WorkerMessage.request(request), .clock(now: Date(timeIntervalSince1970: 1_800_000_000)),
            .answer(WorkerAnswer(id: 7, outcome: .result(Array(#"{"entries":[]}"#.utf8)), stuck: false, liveBytes: 1024, peakBytes: 2048)),
            .answer(WorkerAnswer(id: 8, outcome: .error(.timedOut, "did not answer"), stuck: true, liveBytes: nil, peakBytes: nil)),
            .hello(helloJSON),
        ].map { Array($0.encoded().dropFirst(4)) }
    }

    @Test func workerMessages() {
        var random = SeededGenerator(state: 21)
        let seeds = Self.messages
        for run in 0..<Fuzzing.runs(suite: 3000) {
            let input = Fuzzing.mutate(seeds[run % seeds.count], &random)
            let outcome = input.withUnsafeBytes { raw in Result { () throws(ChannelError) in try WorkerMessage(fields: raw) } }
            switch outcome {
            case .failure(let error):
                #expect(isReadable("\(error)"), "run \(run): \("\(error)".debugDescription)")
            case .success(.hello(let object)):
                // What a hello says is checked in its turn: a kind is an identifier, its texts are safe.
                do {
                    let hello = try WorkerHello(json: object, path: "/fuzz.so")
                    for widget in hello.widgets {
                        #expect(!widget.declaration.kind.isEmpty && !widget.declaration.kind.hasControlCharacters, "run \(run)")
                        #expect(isReadable(widget.declaration.displayName.isEmpty ? "-" : widget.declaration.displayName), "run \(run)")
                    }
                    for problem in hello.problems { #expect(isReadable(problem.message), "run \(run): \(problem.message.debugDescription)") }
                } catch {
                    #expect(isReadable("\(error)"), "run \(run): \("\(error)".debugDescription)")
                }
            case .success(.answer(let answer)):
                if case .error(_, let message) = answer.outcome { #expect(isReadable(message.isEmpty ? "-" : message), "run \(run)") }
            case .success:
                break
            }
        }
    }

    static let controlRequests = [
        #"{"request":"reload"}"#, #"{"request":"reload","kind":"com.example.weather","foreground":true}"#, #"{"request":"configurations"}"#,
        #"{"request":"sync"}"#, #"{"request":"tap","instance":"weather-1","link":2}"#, #"{"request":"tap","instance":"weather-1","button":1}"#,
        #"{"request":"open","url":"weather://today"}"#,
    ].map { Array($0.utf8) }

    @Test func controlRequests() async {
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        let daemon = WidgetDaemon(registry: WidgetRegistry(clock: ManualClock()), store: store)
        await blocking {
            var random = SeededGenerator(state: 22)
            for run in 0..<Fuzzing.runs(suite: 3000) {
                let line = Fuzzing.mutate(Self.controlRequests[run % Self.controlRequests.count], &random)
                let request: JSONValue
                do {
                    request = try JSONValue.parse(line)
                } catch {
                    #expect(self.isReadable("\(error)"), "run \(run): \("\(error)".debugDescription)")
                    continue
                }
                let answer = daemon.handle(request)
                #expect(answer["ok"]?.boolValue != nil, "run \(run): \(answer)")
                if answer["ok"]?.boolValue == false {
                    let message = answer["error"]?.stringValue ?? ""
                    #expect(self.isReadable(message), "run \(run): \(message.debugDescription)")
                }
            }
        }
    }
}
