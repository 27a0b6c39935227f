/// A widget bundle with resources, as `widgets build` makes it and the host loads it: a directory
/// `NAME.widgetbundle` holding the shared object `NAME.so` and what an iOS extension carries beside
/// its code, in the places an `.appex` has them:
///
///     Weather.widgetbundle/
///         Weather.so                  the code (Info.plist's CFBundleExecutable)
///         Info.plist                  XML, with $(...) already substituted
///         Assets.json                 the asset catalogs, compiled (colours, image sets)
///         Assets/                     the image sets' pictures
///         en.lproj/Localizable.strings    string tables (XML plists), from .xcstrings or .strings
///         en.lproj/Localizable.stringsdict    plural variants
///         Entitlements.plist          the entitlements (app groups)
///         ...                         other resources, copied as Xcode's Copy Bundle Resources does
///
/// The host checks every file of it as it checks a lone `.so` (owner, modes, the directories above),
/// and hands the bundle this directory as `widget_host_t.bundle_path` (ABI 1.6).
public enum ResourceBundleLayout {
    /// The directory's extension, without the dot.
    public static let pathExtension = "widgetbundle"
    public static let infoPlist = "Info.plist"
    public static let assets = "Assets.json"
    public static let assetDirectory = "Assets"
    public static let entitlements = "Entitlements.plist"

    /// Whether a path names a bundle with resources (by its name: `NAME.widgetbundle`).
    public static func isBundleDirectory(_ path: String) -> Bool {
        let name = fileName(path)
        return name.utf8.count > pathExtension.utf8.count + 1 && name.hasSuffix("." + pathExtension)
    }

    /// The bundle's name: the directory's, less its extension.
    public static func name(_ path: String) -> String {
        String(fileName(path).dropLast(pathExtension.count + 1))
    }

    /// The shared object inside a bundle directory: `DIR/NAME.so`.
    public static func executable(_ path: String) -> String {
        trimmed(path) + "/" + name(path) + ".so"
    }

    // Byte by byte: every file the host looks at passes through here (counting its Characters was
    // about 7% of the loader's own time).
    private static func trimmed(_ path: String) -> Substring {
        var path = Substring(path)
        while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path = path.dropLast() }
        return path
    }

    private static func fileName(_ path: String) -> Substring {
        let trimmed = trimmed(path)
        guard let slash = trimmed.utf8.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return trimmed[trimmed.utf8.index(after: slash)...]
    }
}
