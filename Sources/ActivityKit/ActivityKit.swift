// `import ActivityKit`, as a Live Activity's files write it (the attributes, Activity.request):
// the SDK's ActivityAttributes, ActivityContent and Activity. Live Activities compile here and are
// not shown yet (docs/PORTING.md).
@_exported import WidgetKit
