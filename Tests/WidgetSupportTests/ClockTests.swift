import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetSupport

@Suite struct ClockTests {

    @Test func theSystemClockSurvivesADateBeyondWhatFoundationCanWaitFor() async {
        // `.after(.distantFuture)` from a provider: the timer thread must wait for it without trapping
        // and go on serving nearer timers.
        let clock = SystemClock()
        let far = clock.schedule(at: .distantFuture) {}
        defer { far.cancel() }
        let ran = await blocking {
            let done = DispatchSemaphore(value: 0)
            clock.schedule(at: Date().addingTimeInterval(0.2)) { done.signal() }
            return done.wait(timeout: .now() + 10) == .success
        }
        #expect(ran)
    }

    @Test func cancelledDeadlinesDoNotPileUpInTheTimerHeap() {
        // Every request sets a deadline and its answer cancels it: one request after another, the
        // heap must hold what is pending, not every deadline since the last compaction.
        let timers = TimerThread(running: false)
        let start = Date().addingTimeInterval(3600)
        for index in 0..<3000 {
            timers.schedule(at: start.addingTimeInterval(Double(index))) {}.cancel()
        }
        #expect(timers.heapCount <= 1)
        // One still pending stays, however many were cancelled before it.
        let pending = timers.schedule(at: start.addingTimeInterval(5000)) {}
        timers.schedule(at: start.addingTimeInterval(6000)) {}.cancel()
        #expect(timers.heapCount == 2)
        pending.cancel()
    }

    @Test func cancelledTimersBehindAPendingOneAreSweptAway() {
        // An early timer that stays pending keeps the cancelled ones behind it from the top, where
        // they would be dropped: the sweep must take them.
        let timers = TimerThread(running: false)
        let start = Date().addingTimeInterval(3600)
        let early = timers.schedule(at: start) {}
        for index in 1...5000 {
            timers.schedule(at: start.addingTimeInterval(Double(index))) {}.cancel()
        }
        #expect(timers.heapCount <= 1025)
        #expect(!early.isCancelledOrDone)
        early.cancel()
    }

    @Test func aCancelledTimerLetsGoOfItsActionAtOnce() {
        // A request's deadline action holds the request, which holds the timer to cancel it.
        final class Request: @unchecked Sendable { var deadline: ScheduledAction? }
        let timers = TimerThread(running: false)
        weak var gone: Request?
        do {
            let request = Request()
            gone = request
            request.deadline = timers.schedule(at: Date().addingTimeInterval(3600)) { _ = request }
            request.deadline?.cancel()
        }
        #expect(gone == nil)
        #expect(timers.heapCount == 1)
    }

    @Test func aManualClockRunsDueTimersInDateOrderAndSkipsCancelledOnes() {
        let clock = ManualClock()
        let ran = LockedList<String>()
        let now = clock.now()
        clock.schedule(at: now + 30) { ran.append("b") }
        clock.schedule(at: now + 10) { ran.append("a") }
        clock.schedule(at: now + 30) { ran.append("c") }
        clock.schedule(at: now + 20) { ran.append("cancelled") }.cancel()
        clock.schedule(at: now + 90) { ran.append("later") }
        #expect(clock.pendingCount == 4)
        clock.advance(by: 60)
        #expect(ran.values == ["a", "b", "c"])
        #expect(clock.pendingCount == 1)
        #expect(clock.now() == now + 60)
        // A date already come runs at once, and is not kept.
        clock.schedule(at: now) { ran.append("past") }
        #expect(ran.values == ["a", "b", "c", "past"])
        #expect(clock.pendingCount == 1)
    }
}
