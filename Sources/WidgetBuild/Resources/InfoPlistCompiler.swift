import FoundationEssentials

/// Makes a bundle's Info.plist as Xcode does: the target's Info.plist file (any format) with Xcode's
/// `INFOPLIST_KEY_*` settings added, every `$(SETTING)` in it expanded, and the keys every bundle has
/// (`CFBundleIdentifier` from `PRODUCT_BUNDLE_IDENTIFIER`, `CFBundleName`, versions, the development
/// region) filled where it lacks them; `CFBundleExecutable` names the bundle's shared object.
public enum InfoPlistCompiler {
    /// Keys an `INFOPLIST_KEY_` setting gives as a boolean (YES/NO) rather than as text.
    static let booleanKeys: Set<String> = [
        "LSRequiresIPhoneOS", "UIApplicationSupportsIndirectInputEvents", "UIRequiresFullScreen", "NSSupportsLiveActivities",
        "NSSupportsLiveActivitiesFrequentUpdates", "UIStatusBarHidden", "ITSAppUsesNonExemptEncryption",
    ]

    public static func compile(_ path: String?, settings: BuildSettings, executable: String) throws(BuildError) -> PlistValue {
        var info: [String: PlistValue] = [:]
        if let path {
            let value: PlistValue
            do {
                value = try PlistValue.read(contentsOf: path)
            } catch {
                throw BuildError(error.description)
            }
            guard let dictionary = value.dictionary else { throw BuildError("\(path): error: an Info.plist's top level must be a dictionary") }
            info = dictionary
        }
        for (name, value) in settings.values where name.hasPrefix("INFOPLIST_KEY_") {
            let key = String(name.dropFirst("INFOPLIST_KEY_".count))
            guard !key.isEmpty, info[key] == nil else { continue }
            let expanded = settings.expand(value)
            if booleanKeys.contains(key), let flag = PlistValue.string(expanded).bool {
                info[key] = .bool(flag)
            } else {
                info[key] = .string(expanded)
            }
        }
        var expanded = expand(.dictionary(info), settings).dictionary ?? [:]
        func fill(_ key: String, _ setting: String) {
            if (expanded[key]?.string ?? "").isEmpty, let value = settings[setting], !value.isEmpty { expanded[key] = .string(value) }
        }
        fill("CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER")
        fill("CFBundleName", "PRODUCT_NAME")
        fill("CFBundleDevelopmentRegion", "DEVELOPMENT_LANGUAGE")
        fill("CFBundleShortVersionString", "MARKETING_VERSION")
        fill("CFBundleVersion", "CURRENT_PROJECT_VERSION")
        fill("CFBundlePackageType", "PRODUCT_BUNDLE_PACKAGE_TYPE")
        expanded["CFBundleExecutable"] = .string(executable)
        // What no Linux host reads, and which would name a file that is not there.
        expanded["CFBundleIcons"] = nil
        return .dictionary(expanded)
    }

    /// Every string in a value with its `$(...)` references expanded.
    static func expand(_ value: PlistValue, _ settings: BuildSettings) -> PlistValue {
        switch value {
        case .string(let text): .string(settings.expand(text))
        case .array(let items): .array(items.map { expand($0, settings) })
        case .dictionary(let members): .dictionary(members.mapValues { expand($0, settings) })
        default: value
        }
    }

    /// The extension point an Info.plist names (`com.apple.widgetkit-extension` for a widget extension).
    public static func extensionPoint(_ info: PlistValue) -> String? {
        info["NSExtension"]?["NSExtensionPointIdentifier"]?.string
    }
}
