/* Functions implemented in Swift with @_cdecl and called by the C type definitions.
 * The Swift signatures must match these exactly; -Xlinker --no-undefined catches a missing one. */
#ifndef RC_SWIFT_EXPORTS_H
#define RC_SWIFT_EXPORTS_H

#include "include/CReplayCast.h"

void *rc_volumemeter_state_new(void);
void rc_volumemeter_state_free(void *state);
gboolean rc_volumemeter_start(RcVolumeMeter *self);
gboolean rc_volumemeter_stop(RcVolumeMeter *self);
gboolean rc_volumemeter_set_caps(RcVolumeMeter *self, GstCaps *caps);
GstFlowReturn rc_volumemeter_transform_ip(RcVolumeMeter *self, GstBuffer *buffer);
/* Called before the event is forwarded; EOS posts the last partial interval. */
void rc_volumemeter_sink_event(RcVolumeMeter *self, GstEvent *event);

#endif
