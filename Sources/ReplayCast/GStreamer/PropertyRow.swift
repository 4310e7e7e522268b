// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// What a property adds to readable and writable, as gst-inspect-1.0 shows it.
struct PropertyFlags: OptionSet, Sendable {
    let rawValue: UInt32

    static let mutableReady = PropertyFlags(bits: RC_PARAM_MUTABLE_READY)
    static let mutablePlaying = PropertyFlags(bits: RC_PARAM_MUTABLE_PLAYING)
    static let controllable = PropertyFlags(bits: RC_PARAM_CONTROLLABLE)
    static let deprecated = PropertyFlags(bits: RC_PARAM_DEPRECATED)
    /// The property reports a value the element keeps (a state, a count): readable only, and
    /// the element writes it with `PropertyTable.publish`. A bit of G_PARAM_USER_SHIFT's range
    /// that GStreamer leaves unused; it never reaches GLib.
    static let status = PropertyFlags(rawValue: 1 << 24)

    init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(bits: some BinaryInteger) { rawValue = UInt32(truncatingIfNeeded: bits) }

    /// The GParamFlags of the param spec: access, static strings (each of the spec's strings
    /// lives as long as the class) and these.
    var paramFlags: GParamFlags {
        let access = contains(.status) ? UInt32(truncatingIfNeeded: RC_PARAM_READABLE)
                                       : UInt32(truncatingIfNeeded: RC_PARAM_READWRITE)
        let bits = access | UInt32(truncatingIfNeeded: RC_PARAM_STATIC_STRINGS)
        return GParamFlags(rawValue: GParamFlags.RawValue(truncatingIfNeeded: bits | subtracting(.status).rawValue))
    }
}

/// A property's type, range and default, as its param spec gives them.
enum PropertyValue: Sendable {
    case boolean(default: Bool)
    case int(ClosedRange<Int32>, default: Int32)
    case uint(ClosedRange<UInt32>, default: UInt32)
    case uint64(ClosedRange<UInt64>, default: UInt64)
    case double(ClosedRange<Double>, default: Double)
    case enumeration(EnumType, default: Int32)
    case string(default: String?)
    /// A GstStructure, read-only (status): the element makes each value when asked.
    case structure
}

/// Where a property's value lives: a field of the settings struct (its offset there), or the
/// object itself (a base class's setting shown as ours).
enum PropertyStorage: Sendable {
    case field(offset: Int)
    case object(get: @Sendable (UnsafeMutableRawPointer) -> Bool, set: @Sendable (UnsafeMutableRawPointer, Bool) -> Void)
    /// A value made when read (a child's statistics), owned by the caller; nil: unset.
    case made(@Sendable (UnsafeMutableRawPointer) -> UnsafeMutablePointer<GstStructure>?)
}

/// A property without its settings type: what GObject's callbacks work with.
struct PropertySpec: Sendable {
    let name: String
    let nick: String
    let blurb: String
    let value: PropertyValue
    let storage: PropertyStorage
    let flags: PropertyFlags

    var offset: Int? {
        if case .field(let offset) = storage { offset } else { nil }
    }

    /// The param spec. The name is interned, as GLib would; nick and blurb are copies kept
    /// for the life of the class (interning them would make quarks, and quarks order what
    /// gst-inspect-1.0 lists, such as the action signals).
    func paramSpec() -> UnsafeMutablePointer<GParamSpec> {
        let (name, nick, blurb) = (g_intern_string(name), UnsafePointer(g_strdup(nick)), UnsafePointer(g_strdup(blurb)))
        let flags = flags.paramFlags
        return switch value {
        case .boolean(let initial): g_param_spec_boolean(name, nick, blurb, initial ? 1 : 0, flags)
        case .int(let range, let initial):
            g_param_spec_int(name, nick, blurb, range.lowerBound, range.upperBound, initial, flags)
        case .uint(let range, let initial):
            g_param_spec_uint(name, nick, blurb, range.lowerBound, range.upperBound, initial, flags)
        case .uint64(let range, let initial):
            g_param_spec_uint64(name, nick, blurb, guint64(range.lowerBound), guint64(range.upperBound), guint64(initial),
                                flags)
        case .double(let range, let initial):
            g_param_spec_double(name, nick, blurb, range.lowerBound, range.upperBound, initial, flags)
        case .enumeration(let type, let initial): g_param_spec_enum(name, nick, blurb, type.type, initial, flags)
        case .string(nil): g_param_spec_string(name, nick, blurb, nil, flags)
        // GLib copies a string property's default.
        case .string(let initial?): g_param_spec_string(name, nick, blurb, initial, flags)
        case .structure: g_param_spec_boxed(name, nick, blurb, gst_structure_get_type(), flags)
        }
    }
}

/// One property of an element or pad whose value lives in its settings struct `Settings`,
/// written once: name, nick, blurb, type, range, default, flags and the field. The
/// constructors take the field's key path, so a row cannot name a field of another type.
struct PropertyRow<Settings>: Sendable {
    let spec: PropertySpec

    private init(_ name: String, _ nick: String, _ blurb: String, _ value: PropertyValue, _ storage: PropertyStorage,
                 _ flags: PropertyFlags) {
        spec = PropertySpec(name: name, nick: nick, blurb: blurb, value: value, storage: storage, flags: flags)
    }

    private static func at<Field>(_ field: WritableKeyPath<Settings, Field>) -> PropertyStorage {
        guard let offset = MemoryLayout<Settings>.offset(of: field) else {
            preconditionFailure("a property's field must be a stored field of its settings struct")
        }
        return .field(offset: offset)
    }

    static func boolean(_ field: WritableKeyPath<Settings, gboolean>, _ name: String, _ nick: String, _ blurb: String,
                        default initial: Bool, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .boolean(default: initial), at(field), flags)
    }

    static func int(_ field: WritableKeyPath<Settings, gint>, _ name: String, _ nick: String, _ blurb: String,
                    _ range: ClosedRange<Int32>, default initial: Int32, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .int(range, default: initial), at(field), flags)
    }

    static func uint(_ field: WritableKeyPath<Settings, guint>, _ name: String, _ nick: String, _ blurb: String,
                     _ range: ClosedRange<UInt32>, default initial: UInt32, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .uint(range, default: initial), at(field), flags)
    }

    static func uint64(_ field: WritableKeyPath<Settings, guint64>, _ name: String, _ nick: String, _ blurb: String,
                       _ range: ClosedRange<UInt64>, default initial: UInt64, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .uint64(range, default: initial), at(field), flags)
    }

    static func double(_ field: WritableKeyPath<Settings, gdouble>, _ name: String, _ nick: String, _ blurb: String,
                       _ range: ClosedRange<Double>, default initial: Double, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .double(range, default: initial), at(field), flags)
    }

    /// An enum property stored in a C enum field (GValue keeps enums as gint).
    static func enumeration<Field: RawRepresentable>(
        _ field: WritableKeyPath<Settings, Field>, _ name: String, _ nick: String, _ blurb: String, _ type: EnumType,
        default initial: Field, _ flags: PropertyFlags
    ) -> Self where Field.RawValue: BinaryInteger {
        precondition(MemoryLayout<Field>.size == MemoryLayout<gint>.size, "an enum property's field is gint-sized")
        return Self(name, nick, blurb, .enumeration(type, default: Int32(truncatingIfNeeded: initial.rawValue)), at(field),
                    flags)
    }

    /// An enum property stored in a gint field (an index, such as replaykitsrc's device).
    static func enumeration(_ field: WritableKeyPath<Settings, gint>, _ name: String, _ nick: String, _ blurb: String,
                            _ type: EnumType, default initial: Int32, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .enumeration(type, default: initial), at(field), flags)
    }

    /// A string property; the settings own their copy (g_strdup), freed at finalize.
    static func string(_ field: WritableKeyPath<Settings, UnsafeMutablePointer<gchar>?>, _ name: String, _ nick: String,
                       _ blurb: String, default initial: String?, _ flags: PropertyFlags) -> Self {
        Self(name, nick, blurb, .string(default: initial), at(field), flags)
    }

    /// A boolean property the object keeps itself (a base class's setting shown as ours).
    static func boolean(_ name: String, _ nick: String, _ blurb: String, default initial: Bool, _ flags: PropertyFlags,
                        get: @escaping @Sendable (UnsafeMutableRawPointer) -> Bool,
                        set: @escaping @Sendable (UnsafeMutableRawPointer, Bool) -> Void) -> Self {
        Self(name, nick, blurb, .boolean(default: initial), .object(get: get, set: set), flags)
    }

    /// A read-only structure the object makes when it is read, such as a child's statistics.
    static func structure(_ name: String, _ nick: String, _ blurb: String,
                          get: @escaping @Sendable (UnsafeMutableRawPointer) -> UnsafeMutablePointer<GstStructure>?) -> Self {
        Self(name, nick, blurb, .structure, .made(get), .status)
    }
}
