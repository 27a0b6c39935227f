import Dispatch
import FoundationEssentials
import Glibc
import WidgetRendering

/// The dashboard's keys, read from a terminal put in raw mode (restored on the way out): q or Esc
/// quit, as SIGINT does; ↑ ↓ scroll a row, PgUp PgDn a page; ← → (Tab, Shift-Tab) select a box.
final class Keyboard: @unchecked Sendable {
    private var saved = termios()
    private let source: DispatchSourceRead

    init?(dashboard: Dashboard) {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            guard count > 0 else { return }
            // A quick double PgDn, or keys typed ahead, arrive in one read: each is a key.
            for key in Keyboard.keys(Array(bytes[..<count])) {
                switch key {
                case .quit: TerminationSignals.shared.quit()
                case .scroll(let rows): dashboard.scroll(by: rows)
                case .page(let pages): dashboard.scroll(by: pages * dashboard.pageRows)
                case .select(let steps): dashboard.select(by: steps)
                }
            }
        }
        source.resume()
    }

    enum Key: Equatable {
        case quit
        case scroll(Int)
        case page(Int)
        case select(Int)
    }

    /// The keys in a read of the terminal, in order: each escape sequence (ESC [ parameters and a
    /// final byte, or ESC O and a letter) is one key, an ESC followed by neither is Esc, every other
    /// byte (or UTF-8 character) a key of its own; sequences that mean no key are skipped.
    static func keys(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            var end = index + 1
            if bytes[index] == 0x1B, index + 1 < bytes.count {
                if bytes[index + 1] == 0x5B {
                    // CSI: parameters and intermediates (0x20-0x3F), then a final byte (0x40-0x7E).
                    end = index + 2
                    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
                    end = min(bytes.count, end + 1)
                } else if bytes[index + 1] == 0x4F {
                    end = min(bytes.count, index + 3)
                }
            } else if bytes[index] >= 0xC0 {
                // A UTF-8 character's continuation bytes go with it.
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            }
            if let key = key(Array(bytes[index..<end])) { keys.append(key) }
            index = end
        }
        return keys
    }

    /// What one key's bytes mean: Esc alone is a key; an escape sequence is another key.
    static func key(_ bytes: [UInt8]) -> Key? {
        switch bytes {
        case [UInt8(ascii: "q")], [UInt8(ascii: "Q")], [0x1B]: .quit
        case [0x1B, 0x5B, 0x41], [0x1B, 0x4F, 0x41], [UInt8(ascii: "k")]: .scroll(-1)
        case [0x1B, 0x5B, 0x42], [0x1B, 0x4F, 0x42], [UInt8(ascii: "j")]: .scroll(1)
        case [0x1B, 0x5B, 0x35, 0x7E]: .page(-1)
        case [0x1B, 0x5B, 0x36, 0x7E], [UInt8(ascii: " ")]: .page(1)
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43], [0x09], [UInt8(ascii: "l")]: .select(1)
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44], [0x1B, 0x5B, 0x5A], [UInt8(ascii: "h")]: .select(-1)
        default: nil
        }
    }

    func restore() {
        source.cancel()
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
