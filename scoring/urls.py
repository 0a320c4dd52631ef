app_name = "scoring"

urlpatterns: list = []
