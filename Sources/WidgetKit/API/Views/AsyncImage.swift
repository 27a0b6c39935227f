public import Foundation

/// An image loaded from a URL (iOS 15). A widget is drawn at once, without waiting for a download,
/// so iOS draws an `AsyncImage` in a widget as it is before its image arrives: its placeholder (or
/// its content for `.empty`); here too. A widget shows a remote picture by fetching it in its
/// provider and putting `UIImage(data:)` in its entry.
public struct AsyncImage<Content: View>: View {
    let content: Content

    /// With no content given: the placeholder iOS draws, a grey fill.
    public init(url: URL?, scale: CGFloat = 1) where Content == _AsyncImagePlaceholder {
        content = _AsyncImagePlaceholder()
    }

    public init<I: View>(url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I, @ViewBuilder placeholder: @escaping () -> Content) {
        self.content = placeholder()
    }

    public init(url: URL?, scale: CGFloat = 1, transaction: Transaction = Transaction(), @ViewBuilder content: @escaping (AsyncImagePhase) -> Content) {
        self.content = content(.empty)
    }

    public var body: some View { content }
}

/// The grey an `AsyncImage` without a placeholder of its author's shows.
public struct _AsyncImagePlaceholder: View {
    public var body: some View { Rectangle().fill(Color(name: "quaternary")) }
}

/// Where an `AsyncImage`'s loading is: in a widget, always `.empty`.
public enum AsyncImagePhase {
    case empty
    case success(Image)
    case failure(any Error)

    public var image: Image? {
        if case .success(let image) = self { return image }
        return nil
    }

    public var error: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
