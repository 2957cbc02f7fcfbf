package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The body of {@code POST /v1/topics/{topic}/dead/requeue}: {@code {}} requeues every dead letter of the topic,
 * {@code {"ids": [...]}} only those. An explicit {@code "ids": null} is refused rather than read as "all", so that a
 * client whose selection went missing does not requeue everything. Not thread-safe (one per request).
 */
@Schema(description = "{} for every dead letter of the topic, or {\"ids\": [...]} for some")
public final class RequeueDeadBody {
    private List<String> ids;
    private boolean idsGiven;

    /** @return the dead letters to requeue, or null when the body names none (all) */
    @ArraySchema(
            arraySchema = @Schema(description = "the dead letters to requeue; absent for all"),
            minItems = 1,
            maxItems = AdminLimits.MAX_IDS,
            schema = @Schema(description = "a job's id"))
    public List<String> getIds() {
        return ids;
    }

    /** @param ids the {@code ids} property as sent, null included */
    @JsonProperty("ids")
    public void setIds(List<String> ids) {
        this.ids = ids;
        this.idsGiven = true;
    }

    /**
     * @return the ids to requeue, checked: null when the body has no {@code ids} (all dead letters), else 1 to
     *     {@link AdminLimits#MAX_IDS} ids
     * @throws IllegalArgumentException naming {@code ids} (or the element) when they are null, empty, too many, or hold
     *     null
     */
    List<String> checkedIds() {
        if (!idsGiven) {
            return null;
        }
        if (ids == null) {
            throw new IllegalArgumentException(
                    "ids: must be an array of 1 to " + AdminLimits.MAX_IDS + " ids, or absent for all, got null");
        }
        AdminLimits.ids("ids", ids);
        for (int i = 0; i < ids.size(); i++) {
            if (ids.get(i) == null) {
                throw new IllegalArgumentException("ids[" + i + "]: must be a string, got null");
            }
        }
        return ids;
    }
}
