/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every element (and pad) type of the plugin has in common, declared once: its GType
 * with finalize, its properties (a Swift table) and its Swift state; the standard lifecycle
 * state change; and registration. An element file then holds its pads, its vfuncs and
 * nothing else (docs/adding-an-element.md). */
#ifndef RC_ELEMENT_H
#define RC_ELEMENT_H

#include "rc_gst.h"
#include "rc_compat.h"

/* The class struct of a type that adds no class fields. */
#define RC_CLASS_STRUCT(Type, ParentClass) typedef struct { ParentClass parent_class; } Type##Class

static inline void rc_no_interfaces(GType type) {}
/* GstChildProxy over the element's sink pads (rc_child_proxy.c). */
void rc_sink_pads_child_proxy(GType type);

/* Releases any element's or pad's Swift state object (one export in Swift, SwiftState.swift). */
void rc_state_release(void *state);

/* Properties are declared in Swift (PropertyTable.swift): each type's file exports
 * `const void *prefix_properties(void)`, its table, which these take. */
void rc_properties_install(GObjectClass *klass, const void *table);
void rc_properties_init(gpointer object, const void *table);
void rc_properties_clear(gpointer object, const void *table);
void rc_properties_set(gpointer object, const void *table, guint id, const GValue *value);
void rc_properties_get(gpointer object, const void *table, guint id, GValue *value);

/* Defines the GType `GstName` (GStreamer names instances after the type with "Gst" stripped:
 * GstVolumeMeter gives "volumemeter0") for the instance struct `Type`, which has a `settings`
 * struct described by the Swift table prefix_properties() and a `void *state` holding its
 * Swift object. `interfaces(type)` adds the type's interfaces (rc_no_interfaces,
 * rc_sink_pads_child_proxy). Written here: the G_DEFINE_TYPE, class_init (the table's
 * properties installed, then prefix_class_setup), instance init (settings at their defaults,
 * then prefix_instance_setup, then `state = new_state`) and finalize (state released,
 * settings cleared: no instance owns more than these). */
#define RC_DEFINE_TYPE(GstName, Type, prefix, PARENT_TYPE, new_state, interfaces)                      \
  typedef Type GstName;                                                                                \
  typedef Type##Class GstName##Class;                                                                  \
  const void *prefix##_properties(void);                                                               \
  static void prefix##_class_setup(Type##Class *klass);                                                \
  static void prefix##_instance_setup(Type *self);                                                     \
  G_DEFINE_TYPE_WITH_CODE(GstName, prefix, PARENT_TYPE, interfaces(g_define_type_id))                  \
  static void prefix##_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) { \
    rc_properties_set(object, prefix##_properties(), id, value);                                       \
  }                                                                                                    \
  static void prefix##_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {     \
    rc_properties_get(object, prefix##_properties(), id, value);                                       \
  }                                                                                                    \
  static void prefix##_finalize(GObject *object) {                                                     \
    Type *self = (Type *)object;                                                                       \
    rc_state_release(self->state);                                                                     \
    self->state = NULL;                                                                                \
    rc_properties_clear(self, prefix##_properties());                                                  \
    G_OBJECT_CLASS(prefix##_parent_class)->finalize(object);                                           \
  }                                                                                                    \
  static void prefix##_class_init(Type##Class *klass) {                                                \
    GObjectClass *gobject_class = G_OBJECT_CLASS(klass);                                               \
    gobject_class->set_property = prefix##_set_property;                                               \
    gobject_class->get_property = prefix##_get_property;                                               \
    gobject_class->finalize = prefix##_finalize;                                                       \
    rc_properties_install(gobject_class, prefix##_properties());                                       \
    prefix##_class_setup(klass);                                                                       \
  }                                                                                                    \
  static void prefix##_init(Type *self) {                                                              \
    rc_properties_init(self, prefix##_properties());                                                   \
    prefix##_instance_setup(self);                                                                     \
    self->state = (new_state);                                                                         \
  }

/* The lifecycle of an element that is not a base class with start/stop of its own: start
 * before READY -> PAUSED (before its pads activate), stop after the parent's PAUSED -> READY
 * (after no streaming thread is inside any more), playing told both ways, and a live element
 * answers NO_PREROLL. Any hook may be NULL; a failed open or start fails the change. */
typedef struct {
  gboolean (*open)(GstElement *element);   /* NULL -> READY */
  gboolean (*start)(GstElement *element);  /* READY -> PAUSED, before the parent */
  void (*stop)(GstElement *element);       /* PAUSED -> READY, after the parent */
  void (*set_playing)(GstElement *element, gboolean playing);
  gboolean (*is_live)(GstElement *element); /* NULL: always (a network sink never prerolls) */
} RcLifecycle;

GstStateChangeReturn rc_lifecycle_change_state(GstElement *element, GstStateChange transition,
    GstElementClass *parent_class, const RcLifecycle *lifecycle);

/* Functions implemented in Swift with @_cdecl that C calls (each element's own are declared
 * at the top of its .c). The Swift signatures must match, with one licence: where C sets a
 * function straight into a vfunc slot, it takes the base class's pointer (GstBaseTransform *,
 * GstAggregator *…) and Swift the element's own instance struct, the same object (the base
 * is its first member, and every pointer has one ABI). -Xlinker --no-undefined catches a
 * missing one. */

/* Negotiation that names the element and the reason (Negotiation.swift). A sink pad's CAPS
 * and ACCEPT_CAPS queries against its template: CAPS answered by `answer` (NULL: the
 * template, filtered), ACCEPT_CAPS with the reason posted when it fails. FALSE
 * for any other query, which is left untouched. */
gboolean rc_sink_caps_query(GstElement *element, GstPad *pad, GstQuery *query, RcCapsAnswer answer);
/* A GstBaseTransform's sink side against its sink pad's template: TRUE when a CAPS query was
 * answered (an offer that cannot fit, revealed), FALSE to let the base class answer; caps
 * refused with the reason posted (FALSE) or left to the base class (TRUE). */
gboolean rc_transform_query_answered(GstBaseTransform *trans, GstPadDirection direction, GstQuery *query);
gboolean rc_transform_accepts(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps);
/* Fills a GstBaseTransform class's query and accept_caps slots with the two above, each
 * before the base class's own. */
void rc_transform_negotiation(GstBaseTransformClass *klass);

#endif
