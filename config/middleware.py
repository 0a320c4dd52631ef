"""Response headers Django has no setting for."""

from django.conf import settings

#: No page of the site uses a camera, a microphone, the location or the like: no
#: page (nor anything injected into one) may ask for them.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
)


def permissions_policy(get_response):
    policy = getattr(settings, "PERMISSIONS_POLICY", PERMISSIONS_POLICY)

    def middleware(request):
        response = get_response(request)
        response.headers.setdefault("Permissions-Policy", policy)
        return response

    return middleware
