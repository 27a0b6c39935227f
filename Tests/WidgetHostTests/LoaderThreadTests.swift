import CHostShims
import Foundation
import Glibc
import Testing
import WidgetSupport
import WidgetTestSupport

@testable import WidgetHost

/// Where a bundle's `initialize` runs: in a host, on a loader thread, under its deadline; in a worker
/// (`loadsOnCallingThread`), on the worker's own thread, the host keeping the deadline, with no
/// thread made for it.
@Suite struct LoaderThreadTests {
    private typealias NameFunction = @convention(c) () -> UnsafePointer<CChar>

    /// The name of the thread the fixture's `initialize` ran on, loaded by a registry on a thread
    /// named "loads.here".
    private static func initializeThread(onCallingThread: Bool) async throws -> String {
        let directory = Fixtures.directory(["behaviours"])
        let registry = WidgetRegistry(clock: ManualClock())
        registry.loadsOnCallingThread = onCallingThread
        let path = directory.appendingPathComponent("behaviours.so").path
        let loaded = try await offThePool {
            _ = host_thread_set_name("loads.here")
            return registry.load(file: path) != nil
        }
        #expect(loaded, "\(registry.problems)")
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        let name = unsafeBitCast(try #require(dlsym(handle, "fixture_initialize_thread")), to: NameFunction.self)
        return String(cString: name())
    }

    @Test func aHostLoadsOnALoaderThread() async throws {
        #expect(try await Self.initializeThread(onCallingThread: false) == "widgets.loading")
    }

    @Test func aWorkerLoadsOnItsOwnThread() async throws {
        #expect(try await Self.initializeThread(onCallingThread: true) == "loads.here")
    }
}
