import Combine
import Foundation
import Glibc
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects what a publisher sends, in order.
final class Recorder<Output, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var _values: [Output] = []
    private var _completion: Subscribers.Completion<Failure>?
    var cancellable: AnyCancellable?

    init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        cancellable = publisher.sink(
            receiveCompletion: { [self] completion in lock.withLock { _completion = completion } },
            receiveValue: { [self] value in lock.withLock { _values.append(value) } })
    }

    var values: [Output] { lock.withLock { _values } }
    var finished: Bool { lock.withLock { if case .finished? = _completion { true } else { false } } }
    var failure: Failure? { lock.withLock { if case .failure(let error)? = _completion { error } else { nil } } }
}

/// A subscriber that asks for a fixed number of values, as a test of demand.
final class Counting<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = Never
    let initial: Subscribers.Demand
    var received: [Input] = []
    var completed = false
    var subscription: (any Subscription)?

    init(asking initial: Subscribers.Demand) { self.initial = initial }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(initial)
    }
    func receive(_ input: Input) -> Subscribers.Demand {
        received.append(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { completed = true }
}

struct Failure: Error, Equatable { let reason: String }

/// The subset of Combine widget and app code uses, against the behaviour Apple documents for each.
@Suite struct CombineTests {
    @Test func justSendsItsValueThenFinishes() {
        let recorder = Recorder(Just(5))
        #expect(recorder.values == [5])
        #expect(recorder.finished)
    }

    @Test func demandIsHonouredAndASequenceFinishesAfterItsLastValue() {
        let two = Counting<Int>(asking: .max(2))
        [1, 2, 3].publisher.subscribe(two)
        #expect(two.received == [1, 2] && !two.completed, "only what was asked for")
        two.subscription?.request(.max(1))
        #expect(two.received == [1, 2, 3] && two.completed, "the last value, then the completion with no more demand")
        let empty = Counting<Int>(asking: .none)
        [Int]().publisher.subscribe(empty)
        #expect(empty.completed)
        #expect(Subscribers.Demand.unlimited + 1 == .unlimited)
        #expect(Subscribers.Demand.max(1) - .max(2) == .none)
        #expect(Subscribers.Demand.max(3) < .unlimited)
    }

    @Test func cancellingOrReleasingTheCancellableStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(subject)
        subject.send(1)
        recorder.cancellable?.cancel()
        subject.send(2)
        #expect(recorder.values == [1])
        var received: [Int] = []
        var cancellable: AnyCancellable? = subject.sink { received.append($0) }
        subject.send(3)
        cancellable = nil
        subject.send(4)
        #expect(received == [3] && cancellable == nil)
        var bag = Set<AnyCancellable>()
        subject.sink { received.append($0) }.store(in: &bag)
        subject.send(5)
        #expect(received == [3, 5] && bag.count == 1)
    }

    @Test func aPassthroughSubjectDropsWhatComesBeforeASubscriberAndEndsForAll() {
        let subject = PassthroughSubject<String, Failure>()
        subject.send("lost")
        let early = Recorder(subject)
        subject.send("a")
        subject.send(completion: .failure(Failure(reason: "done")))
        subject.send("after the end")
        #expect(early.values == ["a"])
        #expect(early.failure == Failure(reason: "done"))
        let late = Recorder(subject)
        #expect(late.values.isEmpty && late.failure == Failure(reason: "done"), "a subscriber after the end gets the end")
    }

    @Test func aCurrentValueSubjectSendsItsValueToEachNewSubscriber() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let first = Recorder(subject)
        subject.value = 2
        let second = Recorder(subject)
        subject.send(3)
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [2, 3])
        #expect(subject.value == 3)
    }

    @Test func operatorsTransformFilterAndEnd() {
        #expect(Recorder([1, 2, 3].publisher.map { $0 * 10 }).values == [10, 20, 30])
        let texts: [String] = ["1", "x", "3"]
        #expect(Recorder(texts.publisher.compactMap { Int($0) }).values == [1, 3])
        #expect(Recorder((1...6).publisher.filter { $0.isMultiple(of: 2) }).values == [2, 4, 6])
        let first = Recorder((1...6).publisher.first(where: { $0 > 2 }))
        #expect(first.values == [3] && first.finished)
        #expect(Recorder([1, 2, 3, 4].publisher.dropFirst(2)).values == [3, 4])
        #expect(Recorder([7, 8].publisher.first()).values == [7])
        let thrown = Recorder([1, 2, 3].publisher.tryMap { value -> Int in
            if value == 2 { throw Failure(reason: "two") }
            return value
        })
        #expect(thrown.values == [1], "no value after the throw")
        #expect((thrown.failure as? Failure) == Failure(reason: "two"))
    }

    @Test func decodeReplaceErrorAndCatchRecover() {
        struct Score: Decodable, Equatable { let points: Int }
        let decoded = Recorder(Just(Data(#"{"points": 42}"#.utf8)).decode(type: Score.self, decoder: JSONDecoder()))
        #expect(decoded.values == [Score(points: 42)] && decoded.finished)
        let broken = Recorder(Just(Data("not json".utf8)).decode(type: Score.self, decoder: JSONDecoder()))
        #expect(broken.values.isEmpty && broken.failure is DecodingError)
        let replaced = Recorder(Fail<Int, Failure>(error: Failure(reason: "x")).replaceError(with: 0))
        #expect(replaced.values == [0] && replaced.finished)
        let caught = Recorder(
            Fail<Int, Failure>(error: Failure(reason: "x")).catch { _ in [1, 2].publisher }.eraseToAnyPublisher())
        #expect(caught.values == [1, 2] && caught.finished)
    }

    @Test func aFutureRunsOnceAndGivesEverySubscriberItsResult() {
        var runs = 0
        var fulfil: ((Result<Int, Never>) -> Void)?
        let future = Future<Int, Never> { promise in
            runs += 1
            fulfil = promise
        }
        let first = Recorder(future)
        let second = Recorder(future)
        #expect(runs == 1, "the closure runs when the future is made, once")
        #expect(first.values.isEmpty)
        fulfil?(.success(9))
        #expect(first.values == [9] && first.finished)
        #expect(second.values == [9] && second.finished)
        #expect(Recorder(future).values == [9], "a later subscriber gets the kept result")
    }

    @Test func receiveOnDeliversOnTheScheduler() async {
        let queue = DispatchQueue(label: "combine.tests")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        nonisolated(unsafe) var keep: AnyCancellable?
        let onQueue: [Bool] = await withCheckedContinuation { continuation in
            nonisolated(unsafe) var seen: [Bool] = []
            keep = [1, 2].publisher.receive(on: queue).sink(
                receiveCompletion: { _ in continuation.resume(returning: seen) },
                receiveValue: { _ in seen.append(DispatchQueue.getSpecific(key: key) ?? false) })
        }
        #expect(onQueue == [true, true])
        withExtendedLifetime(keep) {}  // the subscription lives until here
    }

    final class Model: ObservableObject {
        @Published var score = 0
        @Published var name = "ada"
    }

    @Test func publishedPropertiesTellTheirObjectBeforeTheyChange() {
        let model = Model()
        var seenBeforeChange: [Int] = []
        let will = model.objectWillChange.sink { seenBeforeChange.append(model.score) }
        let scores = Recorder(model.$score)
        model.score = 5
        model.name = "grace"
        #expect(seenBeforeChange == [0, 5], "objectWillChange sends before each change, of any @Published property")
        #expect(scores.values == [0, 5], "$score: the current value, then each new one")
        #expect(model.score == 5)
        Just(8).assign(to: &model.$score)
        #expect(model.score == 8)
        withExtendedLifetime(will) {}
    }

    @Test func assignWritesEachValueToAProperty() {
        let model = Model()
        let cancellable = ["x", "y"].publisher.assign(to: \.name, on: model)
        #expect(model.name == "y")
        withExtendedLifetime(cancellable) {}
    }

    /// A server on 127.0.0.1 that answers one request with `body`, on a thread of its own; its port.
    static func serveOnce(_ body: String) throws -> UInt16 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 1) == 0 else { throw Failure(reason: "cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &buffer, buffer.count)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
            _ = write(connection, answer, answer.count)
            close(connection)
            close(listener)
        }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test func aDataTaskPublisherDeliversTheAnswerOrItsError() async throws {
        let port = try Self.serveOnce("[1,2]")
        let url = URL(string: "http://127.0.0.1:\(port)/scores")!
        nonisolated(unsafe) var keep: AnyCancellable?
        let data: Data? = await withCheckedContinuation { continuation in
            keep = URLSession.shared.dataTaskPublisher(for: url).map(\.data).sink(
                receiveCompletion: { if case .failure = $0 { continuation.resume(returning: nil) } },
                receiveValue: { continuation.resume(returning: $0) })
        }
        #expect(data == Data("[1,2]".utf8))
        // The error from a scheme URLSession has no protocol for, found before any connection: a
        // refused connection is the classic trigger of Linux Foundation's URLSession teardown race
        // (swift-corelibs-foundation #4791, #5469), the likely end of a test run that crashed with
        // "free(): invalid pointer" on a serial queue's thread while this test ran.
        let failed: URLError? = await withCheckedContinuation { continuation in
            keep = URLSession.shared.dataTaskPublisher(for: URL(string: "widgets-test://127.0.0.1/")!).sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { continuation.resume(returning: error) } else { continuation.resume(returning: nil) }
                }, receiveValue: { _ in })
        }
        #expect(failed?.code == .unsupportedURL, "the failure is the URLError: \(String(describing: failed))")
        withExtendedLifetime(keep) {}  // the subscription lives until here
    }

    @Test func aTimerPublisherTicksOnceConnectedAndStopsWithItsLastSubscriber() async {
        nonisolated(unsafe) var keep: AnyCancellable?
        let ticks: Int = await withCheckedContinuation { continuation in
            nonisolated(unsafe) var count = 0
            keep = Timer.publish(every: 0.001, on: RunLoop.current, in: .common).autoconnect().sink { _ in
                count += 1
                if count == 2 { continuation.resume(returning: count) }
            }
        }
        #expect(ticks == 2)
        withExtendedLifetime(keep) {}  // the subscription lives until here
    }
}
