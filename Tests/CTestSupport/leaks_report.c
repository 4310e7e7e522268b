/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "leaks_report.h"
#include <gst/gst.h>

static GstTracer *find_leaks_tracer(void) {
  GList *tracers = gst_tracing_get_active_tracers();
  GstTracer *found = NULL;
  for (GList *l = tracers; l; l = l->next) {
    if (!found && g_strcmp0(G_OBJECT_TYPE_NAME(l->data), "GstLeaksTracer") == 0)
      found = gst_object_ref(l->data);
  }
  g_list_free_full(tracers, gst_object_unref);
  return found;
}

/* The caps of every typefinder: the registry holds them until gst_deinit. */
static GHashTable *registry_caps(void) {
  GHashTable *held = g_hash_table_new(NULL, NULL);
  GList *finders = gst_type_find_factory_get_list();
  for (GList *l = finders; l; l = l->next) {
    GstCaps *caps = gst_type_find_factory_get_caps(l->data);
    if (caps) g_hash_table_add(held, caps);
  }
  gst_plugin_feature_list_free(finders);
  return held;
}

/* Plugins, their features and the typefinders' caps are the registry's, freed by
 * gst_deinit; only plugins loaded after gst_init (ours, typefinders) are seen here. */
static gboolean held_by_registry(const GValue *value, GHashTable *caps) {
  if (G_VALUE_HOLDS_OBJECT(value))
    return GST_IS_PLUGIN(g_value_get_object(value)) || GST_IS_PLUGIN_FEATURE(g_value_get_object(value));
  return GST_VALUE_HOLDS_CAPS(value) && g_hash_table_contains(caps, gst_value_get_caps(value));
}

/* "GstPipeline pipeline3" for objects, the type name for mini objects. */
static gchar *describe(const GValue *value) {
  if (G_VALUE_HOLDS_OBJECT(value) && GST_IS_OBJECT(g_value_get_object(value))) {
    GstObject *object = g_value_get_object(value);
    return g_strdup_printf("%s %s", G_OBJECT_TYPE_NAME(object), GST_OBJECT_NAME(object));
  }
  return g_strdup(g_type_name(G_VALUE_TYPE(value)));
}

gchar *rc_leaks_report(void) {
  GstTracer *tracer = find_leaks_tracer();
  if (!tracer) return NULL;
  /* A task's thread drops its own reference after waking the joiner, so a pipeline torn
   * down just before exit can leave a GstTask counted alive for a moment: wait the
   * task pool's threads out first. */
  gst_task_cleanup_all();
  GstStructure *info = NULL;
  g_signal_emit_by_name(tracer, "get-live-objects", &info);
  gst_object_unref(tracer);
  const GValue *list = info ? gst_structure_get_value(info, "live-objects-list") : NULL;
  GHashTable *caps = registry_caps();
  GHashTable *counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  guint alive = 0;
  for (guint i = 0; list && i < gst_value_list_get_size(list); i++) {
    const GstStructure *entry = gst_value_get_structure(gst_value_list_get_value(list, i));
    const GValue *object = gst_structure_get_value(entry, "object");
    if (held_by_registry(object, caps)) continue;
    gchar *name = describe(object);
    guint seen = GPOINTER_TO_UINT(g_hash_table_lookup(counts, name));
    g_hash_table_insert(counts, name, GUINT_TO_POINTER(seen + 1));
    alive++;
  }
  GString *text = g_string_new(NULL);
  g_string_append_printf(text, "%u alive\n", alive);
  GHashTableIter iter;
  gpointer name, count;
  g_hash_table_iter_init(&iter, counts);
  while (g_hash_table_iter_next(&iter, &name, &count))
    g_string_append_printf(text, "%u %s\n", GPOINTER_TO_UINT(count), (const gchar *)name);
  g_hash_table_unref(counts);
  /* What held a leaked object is easier to find knowing its reference count, whether it
   * still has a parent, its state, and (with the tracer's stack traces) where it was made. */
  for (guint i = 0; g_getenv("RC_LEAKS_DETAILS") && list && i < gst_value_list_get_size(list); i++) {
    const GstStructure *entry = gst_value_get_structure(gst_value_list_get_value(list, i));
    const GValue *object = gst_structure_get_value(entry, "object");
    if (held_by_registry(object, caps)) continue;
    gchar *fields = gst_structure_to_string(entry);
    g_string_append_printf(text, "%s\n", fields);
    g_free(fields);
    if (!G_VALUE_HOLDS_OBJECT(object) || !GST_IS_OBJECT(g_value_get_object(object))) continue;
    GstObject *held = g_value_get_object(object);
    g_string_append_printf(text, "  %p refcount %u, parent %s", (void *)held, G_OBJECT(held)->ref_count,
        held->parent ? GST_OBJECT_NAME(held->parent) : "none");
    if (GST_IS_ELEMENT(held))
      g_string_append_printf(text, ", state %s", gst_element_state_get_name(GST_STATE(held)));
    if (GST_IS_PAD(held))
      g_string_append_printf(text, ", mode %s, task %p", gst_pad_mode_get_name(GST_PAD_MODE(held)),
          (void *)GST_PAD_TASK(held));
    if (GST_IS_TASK(held))
      g_string_append_printf(text, ", task state %d", GST_TASK_STATE(held));
    g_string_append(text, "\n");
  }
  g_hash_table_unref(caps);
  /* info is not freed: the tracer hands over the leaked objects without taking a reference,
   * so freeing it would unref objects that are still in use. The process is ending. */
  return g_string_free(text, FALSE);
}
