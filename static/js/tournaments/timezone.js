// The new-tournament form: the start time is picked on the director's own clock. Fill in
// their time zone (the server turns the picked wall-clock time into UTC) and name it.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const field = document.querySelector('input[name="time_zone"]');
if (field && !field.value) field.value = zone;
const shown = document.getElementById("time-zone-name");
if (shown) shown.textContent = field ? field.value : zone;
