import WidgetABI

/// This release of the widget host, as `widgets --version` prints it and its caches record it.
public enum WidgetsRelease {
    /// The release, as semantic versions go.
    public static let version = "0.6.0"
    /// The worker protocol this host and its workers speak (a worker of another is refused).
    public static var workerProtocol: Int { WorkerHello.protocolVersion }
}
