/// Why the channel to a worker stopped.
enum ChannelError: Error, CustomStringConvertible {
    case closed
    case system(String)
    case malformed(String)

    var description: String {
        switch self {
        case .closed: "the other side closed the channel"
        case .system(let text): text
        case .malformed(let text): "malformed message: \(text)"
        }
    }
}
