// Widget views written for iOS begin with `import SwiftUI`. Here the view language lives in WidgetKit;
// this module lets those files compile unchanged.
@_exported import WidgetKit
