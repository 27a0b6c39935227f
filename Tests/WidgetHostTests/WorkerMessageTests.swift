import Foundation
import Glibc
import Testing
import WidgetWire

import WidgetABI
import WidgetSupport
import WidgetTimelines
@testable import WidgetHost

/// The messages between the host and a worker process: every field survives the wire, messages
/// arrive whole however the bytes are split, and a malformed message is refused naming what is wrong.
@Suite struct WorkerMessageTests {
    /// A channel and the raw descriptor at its other end.
    func channelPair() -> (channel: WorkerChannel, far: Int32) {
        var pair: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        return (WorkerChannel(descriptor: pair[0]), pair[1])
    }

    func decoded(_ message: WorkerMessage) throws -> WorkerMessage {
        let bytes = message.encoded()
        #expect(Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24 == bytes.count - 4)
        return try bytes.dropFirst(4).withUnsafeBytes { try WorkerMessage(fields: $0) }
    }

    /// What is wrong with `fields` (a message without its length), as the channel reports it.
    func refusal(_ fields: [UInt8]) -> String? {
        do {
            _ = try fields.withUnsafeBytes { try WorkerMessage(fields: $0) }
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let request = WorkerRequest(
        id: 0x1_0000_0007, kind: .options, widget: "com.example.wëather", family: .accessoryRectangular, isPreview: true,
        environment: RenderingEnvironment(colorScheme: .dark, renderingMode: .vibrant, showsContainerBackground: false),
        now: Date(timeIntervalSince1970: 1_795_000_000.25), due: Date(timeIntervalSince1970: 1_795_000_002.25),
        parameter: "city", configuration: Array(#"{"city":"Zürich"}"#.utf8))

    @Test func aRequestKeepsEveryField() throws {
        guard case .request(let request) = try decoded(.request(Self.request)) else {
            Issue.record("not a request")
            return
        }
        #expect(request.id == Self.request.id)
        #expect(request.kind == .options)
        #expect(request.widget == "com.example.wëather")
        #expect(request.family == .accessoryRectangular)
        #expect(request.isPreview)
        #expect(request.environment == Self.request.environment)
        #expect(request.now == Self.request.now)
        #expect(request.due == Self.request.due)
        #expect(request.parameter == "city")
        #expect(request.configuration == Self.request.configuration)
    }

    @Test func aRequestWithoutParameterStaysWithout() throws {
        var plain = Self.request
        (plain.kind, plain.parameter, plain.isPreview, plain.configuration) = (.timeline, nil, false, [])
        guard case .request(let request) = try decoded(.request(plain)) else {
            Issue.record("not a request")
            return
        }
        #expect(request.kind == .timeline)
        #expect(request.parameter == nil)
        #expect(!request.isPreview)
        #expect(request.configuration.isEmpty)
    }

    @Test func answersKeepTheirOutcomeStuckFlagAndMemory() throws {
        let result = WorkerAnswer(id: 9, outcome: .result(Array(#"{"entries":[]}"#.utf8)), stuck: false, liveBytes: 4096, peakBytes: 0)
        guard case .answer(let answer) = try decoded(.answer(result)), case .result(let bytes) = answer.outcome else {
            Issue.record("not a result")
            return
        }
        #expect(answer.id == 9)
        #expect(bytes == Array(#"{"entries":[]}"#.utf8))
        #expect(!answer.stuck)
        #expect(answer.liveBytes == 4096)
        #expect(answer.peakBytes == 0)

        let failure = WorkerAnswer(id: 10, outcome: .error(.timedOut, "timeline did not complete within 15 s"), stuck: true, liveBytes: nil, peakBytes: nil)
        guard case .answer(let answer) = try decoded(.answer(failure)), case .error(let reason, let message) = answer.outcome else {
            Issue.record("not an error")
            return
        }
        #expect(answer.id == 10)
        #expect(reason == .timedOut)
        #expect(message == "timeline did not complete within 15 s")
        #expect(answer.stuck)
        #expect(answer.liveBytes == nil)
        #expect(answer.peakBytes == nil)
    }

    @Test func theClockAndTheHelloKeepTheirContents() throws {
        guard case .clock(let now) = try decoded(.clock(now: Date(timeIntervalSince1970: 12.5))) else {
            Issue.record("not the clock")
            return
        }
        #expect(now == Date(timeIntervalSince1970: 12.5))
        let hello = JSONObject([("pid", .number(42)), ("widgets", .array([.string("a")]))])
        guard case .hello(let object) = try decoded(.hello(hello)) else {
            Issue.record("not a hello")
            return
        }
        #expect(object == hello)
        guard case .idle = try decoded(.idle) else {
            Issue.record("not the idle message")
            return
        }
        #expect(refusal([5, 0]) == "malformed message: 1 byte after an idle message")
    }

    @Test func messagesArriveWholeHoweverTheBytesAreSplit() throws {
        let (channel, far) = channelPair()
        defer { close(far) }
        let first = WorkerMessage.clock(now: Date(timeIntervalSince1970: 1)).encoded()
        let second = WorkerMessage.request(Self.request).encoded()
        let third = WorkerMessage.clock(now: Date(timeIntervalSince1970: 3)).encoded()
        // The first two in one write, split inside the second's length; the rest a byte at a time.
        let all = first + second + third
        let cut = first.count + 2
        #expect(all[..<cut].withUnsafeBytes { write(far, $0.baseAddress, $0.count) } == cut)
        guard case .clock(let one) = try channel.receive() else {
            Issue.record("not the clock")
            return
        }
        #expect(one == Date(timeIntervalSince1970: 1))
        #expect(try channel.nextBufferedMessage() == nil)
        let writer = Thread {
            for byte in all[cut...] {
                var byte = byte
                _ = write(far, &byte, 1)
            }
        }
        writer.start()
        guard case .request(let request) = try channel.receive() else {
            Issue.record("not a request")
            return
        }
        #expect(request.widget == Self.request.widget)
        #expect(request.configuration == Self.request.configuration)
        guard case .clock(let three) = try channel.receive() else {
            Issue.record("not the clock")
            return
        }
        #expect(three == Date(timeIntervalSince1970: 3))
    }

    @Test func theEndOfTheStreamIsClosedNotMalformed() {
        let (channel, far) = channelPair()
        close(far)
        #expect(throws: ChannelError.self) { try channel.receive() }
        do {
            _ = try channel.receive()
        } catch {
            #expect(error.description == "the other side closed the channel")
        }
    }

    @Test func aReaderSpinsOnlyWhileInputComesWithinTheWindow() {
        var policy = SpinPolicy()
        #expect(!policy.spins)
        policy.waited(.microseconds(20))
        #expect(policy.spins)
        policy.waited(SpinPolicy.window)
        #expect(policy.spins)
        // A spin that ran out, or a sleep that lasted: the next wait sleeps at once.
        policy.waited(SpinPolicy.window + .nanoseconds(1))
        #expect(!policy.spins)
        policy.waited(.seconds(600))
        #expect(!policy.spins)
        policy.waited(.microseconds(5))
        #expect(policy.spins)
    }

    @Test func aSpinningReaderStillSeesTheEndOfTheStream() throws {
        let (channel, far) = channelPair()
        let message = WorkerMessage.clock(now: Date(timeIntervalSince1970: 1)).encoded()
        #expect(message.withUnsafeBytes { write(far, $0.baseAddress, $0.count) } == message.count)
        _ = try channel.receive()
        // The message was waiting, so the next wait would spin first, as long as that read took less
        // than the spin window of real time, which a loaded machine does not promise: set, not timed.
        channel.spinning.waited(.microseconds(1))
        close(far)
        #expect(throws: ChannelError.self) { try channel.receive() }
    }

    @Test func malformedMessagesAreRefusedNamingWhatIsWrong() {
        let request = Array(WorkerMessage.request(Self.request).encoded().dropFirst(4))
        #expect(refusal([]) == "malformed message: its type is cut short")
        #expect(refusal([99]) == "malformed message: unknown message type 99")
        #expect(refusal(Array(request.prefix(49))) == "malformed message: a request's widget kind is cut short")
        #expect(refusal(request + [0]) == "malformed message: 1 byte after a request message")

        var unknownKind = request
        unknownKind[9] = 77  // the kind follows the type byte and the id
        #expect(refusal(unknownKind) == "malformed message: a request of unknown kind 77")
        var unknownFamily = request
        unknownFamily[13] = 40
        #expect(refusal(unknownFamily) == "malformed message: a request for unknown family 40")

        var notATime = WorkerMessage.clock(now: Date()).encoded().dropFirst(4)
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { nan in
            for index in 0..<8 { notATime[notATime.startIndex + 1 + index] = nan[index] }
        }
        #expect(refusal(Array(notATime)) == "malformed message: the clock's time is not a finite time")
        #expect(refusal([1] + Array("[1]".utf8)) == "malformed message: hello: not a JSON object")
    }

    @Test func aMessageOverTheLimitIsRefusedBeforeItIsRead() {
        let (channel, far) = channelPair()
        defer { close(far) }
        var length = UInt32(WorkerMessage.maximumLength + 1).littleEndian
        #expect(write(far, &length, 4) == 4)
        do {
            _ = try channel.receive()
            Issue.record("an oversized message was accepted")
        } catch {
            #expect(error.description == "malformed message: a message of \(WorkerMessage.maximumLength + 1) bytes exceeds the limit of \(WorkerMessage.maximumLength)")
        }
    }
}
