import FoundationEssentials
import Synchronization

/// The most bytes one answer of a provider may have: a timeline's whole JSON, views and all. Over it,
/// the answer is refused, naming its size and the limit, before the host decodes any of it; a
/// worker refuses it before sending it. 8 MiB by default, many times a real timeline's size (a
/// widget's view is a few kilobytes an entry, a picture at most 256 KiB); `WIDGETS_MAX_RESULT_MB`
/// sets it for a host and its workers. One limit per process: a host is one process.
public enum ResultLimit {
    static let defaultBytes = 8 << 20
    /// The least it may be set to.
    static let leastBytes = 64 << 10

    private static let value = Atomic<Int>(fromEnvironment())

    public static var bytes: Int {
        get { value.load(ordering: .relaxed) }
        set { value.store(max(leastBytes, newValue), ordering: .relaxed) }
    }

    /// `WIDGETS_MAX_RESULT_MB` (a number of MiB), else the default.
    static func fromEnvironment() -> Int {
        guard let text = ProcessInfo.processInfo.environment["WIDGETS_MAX_RESULT_MB"], let megabytes = Double(text),
            megabytes.isFinite, megabytes > 0
        else { return defaultBytes }
        return max(leastBytes, Int(min(megabytes, 1024) * Double(1 << 20)))
    }

    /// "8 MiB", "512 KiB".
    static var text: String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
